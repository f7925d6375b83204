import fs from "node:fs";
import path from "node:path";
import { site } from "~/content/site";
import { getConfig, readOrCreateSecret, type AppConfig } from "~/server/platform/config.server";
import type { CommandIo } from "~/server/platform/db/command.server";
import { signPdf, verifyPdfSignature, type PdfSignatureCheck } from "~/server/platform/crypto/pdf-signature.server";
import { selfSignedIdentityPem, signingIdentity, type SigningIdentity } from "~/server/platform/crypto/signing-identity.server";
import { agreementLender } from "./agreement-document.server";

/**
 * The lender's digital signature on a stored agreement (decision 0086). The certificate is the one
 * configured (SIGNING_CERT_FILE, SIGNING_KEY_FILE) or, when none is, a self-signed one named after the
 * lender's legal name, generated once into DATA_DIR/secrets/signing-identity.pem (certificate and key in
 * one file, written with 'wx' so two processes starting together keep the same one) and reused.
 */

export const GENERATED_SIGNING_FILE = "signing-identity.pem";

const generated = new Map<string, SigningIdentity>();

function generatedFile(config: AppConfig): string {
  return path.join(config.dataDir, "secrets", GENERATED_SIGNING_FILE);
}

/** The identity that signs agreements, generating the local one when none is configured or kept yet. */
export function lenderSigningIdentity(config: AppConfig = getConfig()): SigningIdentity {
  if (config.signing) return config.signing;
  const file = generatedFile(config);
  const known = generated.get(file);
  if (known) return known;
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const { value } = readOrCreateSecret(path.dirname(file), GENERATED_SIGNING_FILE, () => selfSignedIdentityPem(agreementLender().name).trim());
  const identity = signingIdentity(value, value);
  generated.set(file, identity);
  return identity;
}

/** The lender's identity without making one: null when none is configured and none was generated here. */
export function knownLenderSigningIdentity(config: AppConfig = getConfig()): SigningIdentity | null {
  if (config.signing) return config.signing;
  try {
    const text = fs.readFileSync(generatedFile(config), "utf8");
    return signingIdentity(text, text);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/** The agreement's PDF with the lender's signature over every byte, at the borrower's signing time. */
export function sealAgreementPdf(pdf: Buffer, identity: SigningIdentity, signedAt: Date, reference: string): Promise<Buffer> {
  return signPdf(pdf, identity, {
    reason: `Loan agreement ${reference}, signed electronically by the borrower`,
    name: identity.subject,
    location: "United States",
    // The public contact address the Contact page shows, not the lender's internal inbox.
    contactInfo: site.email,
    signingTime: signedAt,
  });
}

export type AgreementCheck = PdfSignatureCheck & { lenderKnown: boolean };

/** Checks a file's signature and whether the lender's certificate (as configured here) made it. */
export function verifyAgreementPdf(pdf: Buffer, config: AppConfig = getConfig()): AgreementCheck {
  const lender = knownLenderSigningIdentity(config);
  return { ...verifyPdfSignature(pdf, lender?.certificateSha256), lenderKnown: lender !== null };
}

/** One line for a person: "valid: signed by … at …" or what fails. */
export function describeAgreementCheck(check: AgreementCheck): string {
  if (!check.valid) return `invalid: ${check.message}${check.signer ? ` (certificate: ${check.signer}, SHA-256 ${check.certificateSha256})` : ""}`;
  const when = check.signedAt ? ` at ${check.signedAt.toISOString()}` : "";
  const whose = check.lenderKnown ? "the lender's certificate" : "a certificate (no lender certificate is configured here to compare)";
  return `valid: signed by ${check.signer}${when} with ${whose}, SHA-256 ${check.certificateSha256}; no byte changed since signing`;
}

/**
 * `npm run agreement:verify <file>`: one line saying valid (with signer and time) or what fails; 0 when
 * the signature is valid (and, where the lender's certificate is known here, is the lender's), else 1.
 */
export function runAgreementVerify(args: readonly string[], io: CommandIo, config: AppConfig): 0 | 1 {
  const [file, ...rest] = args;
  if (!file || rest.length) {
    io.error("Usage: npm run agreement:verify <agreement.pdf>");
    return 1;
  }
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (error) {
    io.error(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    return 1;
  }
  const check = verifyAgreementPdf(bytes, config);
  (check.valid ? io.log : io.error)(`${file}: ${describeAgreementCheck(check)}`);
  return check.valid ? 0 : 1;
}
