import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { deflateSync, crc32 } from "node:zlib";
import { afterAll, describe, expect, it, vi } from "vitest";
import { disclosureBoxLines } from "~/domain/agreement-terms-text";
import { servicingTermsFrom } from "~/domain/servicing-terms";
import type { AgreementDocument, ScheduleRow } from "~/domain/views/loan-agreement";
import { renderAgreementPdf, type AgreementSeal } from "~/server/offers/agreement-pdf.server";

// The signed agreement's PDF read back with Debian's poppler-utils (pdftotext, pdfinfo, pdfimages).

const dir = mkdtempSync(path.join(tmpdir(), "agreement-pdf-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let fileNumber = 0;

function toFile(bytes: Buffer): string {
  const file = path.join(dir, `${++fileNumber}.pdf`);
  writeFileSync(file, bytes);
  return file;
}
const text = (bytes: Buffer, ...args: string[]) => execFileSync("pdftotext", [...args, toFile(bytes), "-"], { encoding: "utf8" });
const pageCount = (bytes: Buffer) => Number(/^Pages:\s+(\d+)/m.exec(execFileSync("pdfinfo", [toFile(bytes)], { encoding: "utf8" }))?.[1]);
const images = (bytes: Buffer) =>
  execFileSync("pdfimages", ["-list", toFile(bytes)], { encoding: "utf8" })
    .split("\n")
    .slice(2)
    .filter((l) => l.trim());

/**
 * A small PNG of the given size with a diagonal stroke: 8-bit grey, or RGBA with a transparent
 * background like the signature pad's canvas export.
 */
function png(width: number, height: number, rgba = false): Uint8Array {
  const channels = rgba ? 4 : 1;
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, rgba ? 6 : 0, 0, 0, 0], 8);
  const stride = width * channels + 1;
  const raw = Buffer.alloc(stride * height, rgba ? 0 : 255); // RGBA: transparent black
  for (let y = 0; y < height; y++) {
    raw[y * stride] = 0; // filter: none
    const at = y * stride + 1 + ((y * 3) % width) * channels;
    if (rgba) raw[at + 3] = 255; // an opaque black stroke
    else raw[at] = 0;
  }
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk("IHDR", ihdr), chunk("IDAT", deflateSync(raw)), chunk("IEND", Buffer.alloc(0))]);
}

function schedule(count: number): ScheduleRow[] {
  return Array.from({ length: count }, (_, i) => {
    const year = 2027 + Math.floor(i / 12);
    const month = String((i % 12) + 1).padStart(2, "0");
    return { number: i + 1, dueDate: `${year}-${month}-05`, paymentCents: 66530, principalCents: 12363 + i, interestCents: 54167 - i, balanceCents: 9987637 - i * 27000 };
  });
}

function agreement(overrides: Partial<AgreementDocument> = {}): AgreementDocument {
  return {
    reference: "LN-2026-0042",
    lender: { name: "Harbor Street Lending, LLC", nmlsId: "1234567", address: { line1: "100 Harbor Street", line2: "Suite 400", city: "Boston", state: "MA", postalCode: "02110" } },
    borrower: { name: "Dana Whitfield", email: "dana@example.com", address: { line1: "12 Elm Road", city: "Albany", state: "NY", postalCode: "12203" } },
    terms: { amountCents: 10_000_000, noteRatePercent: "6.500", aprPercent: "6.718", termMonths: 360, monthlyPaymentCents: 63_207, firstPaymentDue: "2027-01-05", originationFeeCents: 200_000 },
    disclosure: { aprPercent: "6.718", financeChargeCents: 12_954_520, amountFinancedCents: 9_800_000, totalOfPaymentsCents: 22_754_520 },
    disclosureLines: disclosureBoxLines(servicingTermsFrom({ graceDays: 15, flatCents: 2_500, percentMilli: 5_000, capCents: 5_000 }), { originationFeeCents: 200_000 }),
    schedule: schedule(3),
    noteTerms: [
      "1. PROMISE TO PAY. In return for a loan that I have received, I promise to pay the principal amount shown above, plus interest, to the order of the Lender.",
      "2. INTEREST. Interest will be charged on unpaid principal until the full amount of principal has been paid.",
    ],
    signature: { kind: "typed", name: "Dana Whitfield" },
    certificate: {
      signerName: "Dana Whitfield",
      signerEmail: "dana@example.com",
      signedAt: "2026-11-24T15:30:12.000Z",
      ipAddress: "203.0.113.9",
      userAgent: "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0",
      consentVersion: "esign-2026-11-01",
      consentedAt: "2026-11-24T15:21:40.000Z",
    },
    ...overrides,
  };
}

const SEAL: AgreementSeal = { subject: "Harbor Street Lending, LLC", certificateSha256: "3f".repeat(32) };
/** The unsigned rendering (the digital signature is added to these bytes, and tested with it in offer-signing). */
const render = async (doc: AgreementDocument) => ({ bytes: await renderAgreementPdf(doc, SEAL) });

describe("renderAgreementPdf", () => {
  it("prints the title, the four Truth in Lending figures with their headings, the schedule, the note terms, the signature and the certificate", async () => {
    const { bytes } = await render(agreement());
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const all = text(bytes);
    expect(all).toContain("Loan Agreement and Federal Truth in Lending Disclosure");
    for (const heading of ["ANNUAL PERCENTAGE", "FINANCE CHARGE", "Amount Financed", "Total of Payments"]) expect(all).toContain(heading);
    expect(all).toContain("The cost of your credit as a");
    expect(all).toContain("The dollar amount the credit");
    for (const figure of ["6.718%", "$129,545.20", "$98,000.00", "$227,545.20"]) expect(all).toContain(figure);
    expect(all).toContain("Harbor Street Lending, LLC");
    expect(all).toContain("NMLS ID 1234567");
    expect(all).toContain("PROMISE TO PAY");

    const layout = text(bytes, "-layout");
    expect(layout).toMatch(/^\s*1\s+Jan 5, 2027\s+\$665\.30\s+\$123\.63\s+\$541\.67\s+\$99,876\.37\s*$/m);
    expect(layout).toMatch(/^\s*3\s+Mar 5, 2027\s+\$665\.30\s+\$123\.65\s+\$541\.65\s+\$99,336\.37\s*$/m);

    // The certificate is the last page: the signer's evidence and the certificate the file is signed with.
    const pages = pageCount(bytes);
    const certificate = text(bytes, "-f", String(pages), "-l", String(pages));
    expect(certificate).toContain("Signing Certificate");
    for (const value of ["Dana Whitfield", "dana@example.com", "2026-11-24 15:30:12 UTC", "203.0.113.9", "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0", "esign-2026-11-01", "2026-11-24 15:21:40 UTC"]) {
      expect(certificate).toContain(value);
    }
    expect(certificate.replace(/\s+/g, " ")).toContain("This file is digitally signed by the lender, Harbor Street Lending, LLC");
    expect(certificate).toContain(`Certificate SHA-256: ${SEAL.certificateSha256}`);
    // No digest of a separate rendering that nobody holding the file could recompute.
    expect(certificate).not.toContain("agreement pages");
    // The agreement pages come before it and do not hold the certificate.
    expect(text(bytes, "-l", String(pages - 1))).not.toContain("Signing Certificate");
  });

  it("is deterministic: the same data gives the same bytes; other data other bytes", async () => {
    const first = await render(agreement());
    const second = await render(agreement());
    expect(Buffer.compare(second.bytes, first.bytes)).toBe(0);
    // The creation date is the signing time, not the clock.
    expect(execFileSync("pdfinfo", ["-isodates", toFile(first.bytes)], { encoding: "utf8" })).toMatch(/CreationDate:\s+2026-11-24T15:30:12/);

    const changed = await render(agreement({ disclosure: { ...agreement().disclosure, financeChargeCents: 12_954_521 } }));
    expect(Buffer.compare(changed.bytes, first.bytes)).not.toBe(0);
    const otherIp = await render(agreement({ certificate: { ...agreement().certificate, ipAddress: "198.51.100.7" } }));
    expect(Buffer.compare(otherIp.bytes, first.bytes)).not.toBe(0);
  });

  it("paginates a 360-row schedule: every row once, in order, with the header on each schedule page", async () => {
    const { bytes } = await render(agreement({ schedule: schedule(360) }));
    const pages = pageCount(bytes);
    expect(pages).toBeGreaterThanOrEqual(9);

    const numbers: number[] = [];
    let schedulePages = 0;
    for (let page = 1; page <= pages; page++) {
      const layout = text(bytes, "-layout", "-f", String(page), "-l", String(page));
      const rows = [...layout.matchAll(/^\s*(\d+)\s+[A-Z][a-z]+ \d{1,2}, \d{4}\s+\$[\d,]+\.\d\d\s+\$[\d,]+\.\d\d\s+\$[\d,]+\.\d\d\s+\$[\d,]+\.\d\d\s*$/gm)];
      if (!rows.length) continue;
      schedulePages++;
      expect(layout).toMatch(/No\.\s+Due Date\s+Payment\s+Principal\s+Interest\s+Balance/);
      expect(layout).toContain(`Page ${page} of ${pages}`);
      numbers.push(...rows.map((r) => Number(r[1])));
    }
    expect(numbers).toEqual(Array.from({ length: 360 }, (_, i) => i + 1));
    expect(schedulePages).toBeGreaterThan(5);
    expect(text(bytes, "-layout")).toMatch(/^\s*360\s+Dec 5, 2056\s+\$665\.30\s+\$127\.22\s+\$538\.08\s+\$2,946\.37\s*$/m);
  });

  it("counts the file's real pages in every footer, and fills page 1 before turning it", async () => {
    // A 60-month schedule: terms, schedule, note terms and signature, then the certificate.
    const { bytes } = await render(agreement({ schedule: schedule(60) }));
    const pages = pageCount(bytes);
    for (let page = 1; page <= pages; page++) {
      const footer = text(bytes, "-f", String(page), "-l", String(page));
      expect(footer).toContain(`Page ${page} of ${pages}`);
      expect(footer).not.toMatch(new RegExp(`Page \\d+ of (?!${pages}\\b)\\d+`));
    }
    expect(text(bytes, "-f", String(pages), "-l", String(pages))).toContain(`Signing Certificate · Page ${pages} of ${pages}`);
    // Page 1 goes on past the terms into the schedule, rather than leaving its lower half blank.
    const first = text(bytes, "-layout", "-f", "1", "-l", "1");
    expect(first).toContain("Payment Schedule");
    expect(first).toMatch(/^\s*1\s+Jan 5, 2027\s+\$665\.30/m);
    // Under the box's Late Charge, Prepayment and contract-reference lines, still several rows.
    expect(first).toMatch(/^\s*6\s+Jun 5, 2027\s+\$665\.30/m);
    // Nothing is left behind: the whole agreement takes fewer pages than a page per section did.
    expect(pages).toBeLessThanOrEqual(4);
  });

  it("embeds a drawn signature as an image; a typed one prints the name and no image", async () => {
    const drawn = await render(agreement({ signature: { kind: "drawn", png: png(300, 80) } }));
    const list = images(drawn.bytes);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatch(/^\s*\d+\s+\d+\s+image\s+300\s+80\s+gray/);
    expect(text(drawn.bytes)).toContain("Drawn signature");

    // The pad's transparent canvas: the image and its alpha mask.
    const transparent = images((await render(agreement({ signature: { kind: "drawn", png: png(300, 80, true) } }))).bytes);
    expect(transparent.map((l) => l.trim().split(/\s+/)[2])).toEqual(["image", "smask"]);

    const typed = await render(agreement());
    expect(images(typed.bytes)).toHaveLength(0);
    expect(text(typed.bytes)).toContain("Typed signature");
    // A different signature is a different agreement.
    expect(Buffer.compare(drawn.bytes, typed.bytes)).not.toBe(0);
  });

  it("refuses bytes that are not an image, and a signing time that is not a time", async () => {
    await expect(render(agreement({ signature: { kind: "drawn", png: Buffer.from("not a png") } }))).rejects.toThrow();
    await expect(render(agreement({ certificate: { ...agreement().certificate, signedAt: "yesterday" } }))).rejects.toThrow(/ISO time/);
  });

  it("renders user-supplied text with accents, quotes, long words and control characters", async () => {
    const longWord = "Pneumonoultramicroscopicsilicovolcanoconiosis".repeat(4);
    const name = "Zoë O’Brien-Núñez “Jr.”";
    const doc = agreement({
      borrower: { name, email: "zoe+loan@example.com", address: { line1: `Straße ${longWord}`, city: "São Paulo", state: "NY", postalCode: "12203" } },
      noteTerms: [`Clause with a tab\tand a NUL\u0000 and ${longWord} and “quotes” ‘single’ — dashes, € and 中文 and 🙂.`],
      signature: { kind: "typed", name: `${name} ${longWord}` },
      certificate: { ...agreement().certificate, signerName: name, userAgent: `Agent/1.0 <script>alert("x")</script> ${longWord}` },
    });
    const { bytes } = await render(doc);
    const all = text(bytes);
    // Still one page of note terms and signature, then the certificate: nothing ran off onto extra pages.
    expect(pageCount(bytes)).toBe(pageCount((await render(agreement())).bytes));
    expect(all).toContain("Zoë O’Brien-Núñez “Jr.”");
    expect(all).toContain("São Paulo");
    expect(all).toContain("“quotes” ‘single’ — dashes, €");
    expect(all).toContain('<script>alert("x")</script>');
    // The long word wraps instead of running off the page: its pieces are all there.
    expect(all.replace(/\s+/g, "")).toContain(longWord);
    expect(all).not.toContain("\u0000");
  });

  it("fetches nothing: no socket is opened while rendering", async () => {
    const connect = vi.spyOn(net.Socket.prototype, "connect");
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    try {
      await render(agreement({ signature: { kind: "drawn", png: png(120, 40) } }));
      expect(connect).not.toHaveBeenCalled();
      expect(fetchSpy).not.toHaveBeenCalled();
    } finally {
      connect.mockRestore();
      fetchSpy.mockRestore();
    }
  });
});
