import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import PDFDocument from "pdfkit";
import { afterAll, describe, expect, it } from "vitest";
import { collect } from "~/server/offers/agreement-pdf.server";
import { signPdf, verifyPdfSignature } from "~/server/platform/crypto/pdf-signature.server";
import { selfSignedIdentityPem, signingIdentity } from "~/server/platform/crypto/signing-identity.server";

// A PDF signed with a certificate whose name holds PDF and X.500 special characters, read back by pdfsig
// (poppler) and by our own check: the name survives, the file stays well-formed, a change is caught.

const dir = mkdtempSync(path.join(tmpdir(), "pdf-signature-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function smallPdf(): Promise<Buffer> {
  const pdf = new PDFDocument({ info: { CreationDate: new Date("2026-12-01T00:00:00Z") } });
  const done = collect(pdf);
  pdf.text("A two-page document.");
  pdf.addPage().text("Page two.");
  pdf.end();
  return done;
}

const pdfsig = (bytes: Buffer) => {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, bytes);
  const run = spawnSync("pdfsig", [file], { encoding: "utf8" });
  // A malformed signature dictionary shows as "Syntax Error" lines on stderr even when the signature verifies.
  expect(run.stderr).toBe("");
  return run.stdout;
};

describe("signPdf and verifyPdfSignature", () => {
  const name = "Zoë (Harbor) Lending, LLC";
  const pem = selfSignedIdentityPem(name);
  const identity = signingIdentity(pem, pem);
  const signingTime = new Date("2026-12-01T10:00:00Z");

  it("signs so that pdfsig and the check agree it is valid, naming the signer as the certificate does", async () => {
    expect(identity.subject).toBe(name);
    const signed = await signPdf(await smallPdf(), identity, { reason: "Loan agreement (test)", name, location: "United States", contactInfo: "contact@example.com", signingTime });
    const report = pdfsig(signed);
    expect(report).toContain("Signature Validation: Signature is Valid.");
    expect(report).toContain("Total document signed");
    expect(report).toContain("Signature Type: adbe.pkcs7.detached");
    expect(report).toContain("Signing Hash Algorithm: SHA-256");
    expect(verifyPdfSignature(signed, identity.certificateSha256)).toEqual({ valid: true, signer: name, signedAt: signingTime, certificateSha256: identity.certificateSha256, expectedSigner: true });
    expect(verifyPdfSignature(signed)).toMatchObject({ valid: true, expectedSigner: null });
  });

  it("refuses a file whose ByteRange leaves more out than the signature", async () => {
    const signed = await signPdf(await smallPdf(), identity, { reason: "r", name, location: "l", contactInfo: "c", signingTime });
    const text = signed.toString("latin1");
    const match = /\/ByteRange \[0 (\d+) (\d+) (\d+)\]/.exec(text)!;
    // The same length of text, the second range one byte shorter: the file's last byte is not covered.
    const original = match[0];
    const shorter = `/ByteRange [0 ${match[1]} ${match[2]} ${Number(match[3]) - 1}]`.padEnd(original.length, " ");
    const altered = Buffer.from(text.replace(original, shorter), "latin1");
    expect(verifyPdfSignature(altered)).toMatchObject({ valid: false, message: "the document was changed after signing" });
  });
});
