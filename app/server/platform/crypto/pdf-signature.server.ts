import { createHash, verify as verifySignature, X509Certificate } from "node:crypto";
import { plainAddPlaceholder } from "@signpdf/placeholder-plain";
import { SignPdf } from "@signpdf/signpdf";
import { Signer, SUBFILTER_ADOBE_PKCS7_DETACHED } from "@signpdf/utils";
import forge from "node-forge";
import { certificateSha256, subjectName, type SigningIdentity } from "./signing-identity.server";

/**
 * Digital signatures on PDF files, as any PDF reader checks them: a detached CMS (PKCS#7) SignedData
 * over every byte of the file except the signature's own /Contents, SHA-256, RSA, subfilter
 * adbe.pkcs7.detached. The placeholder is added to the finished file as an incremental update
 * (@signpdf/placeholder-plain), so whatever wrote the PDF needs no signing support.
 *
 * Checking does not trust the library that signed: the ByteRange is read from the bytes, the CMS is
 * parsed as plain ASN.1 (node-forge parses, it cannot verify) and the signature is verified with
 * node:crypto against the certificate the CMS carries.
 */

/** Signs with the PEM pair: the CMS carries the certificate and signs contentType, signingTime and messageDigest. */
class PemSigner extends Signer {
  constructor(private readonly identity: SigningIdentity) {
    super();
  }

  override async sign(pdfBuffer: Buffer, signingTime?: Date): Promise<Buffer> {
    const certificate = forge.pki.certificateFromPem(this.identity.certPem);
    const p7 = forge.pkcs7.createSignedData();
    p7.content = forge.util.createBuffer(pdfBuffer.toString("binary"));
    p7.addCertificate(certificate);
    p7.addSigner({
      key: forge.pki.privateKeyFromPem(this.identity.keyPem),
      certificate,
      digestAlgorithm: forge.pki.oids.sha256!,
      // The order readers expect (contentType, signingTime, messageDigest); messageDigest is filled in by sign().
      authenticatedAttributes: [
        { type: forge.pki.oids.contentType!, value: forge.pki.oids.data },
        { type: forge.pki.oids.signingTime!, value: (signingTime ?? new Date()) as unknown as string },
        { type: forge.pki.oids.messageDigest! },
      ],
    });
    p7.sign({ detached: true });
    return Buffer.from(forge.asn1.toDer(p7.toAsn1()).getBytes(), "binary");
  }
}

export type PdfSignatureDetails = { reason: string; name: string; location: string; contactInfo: string; signingTime: Date };

/**
 * The PDF with a signature over all of it. Deterministic: RSA PKCS#1 v1.5 signatures are, so the same
 * file, identity and time give the same bytes.
 */
export async function signPdf(pdf: Buffer, identity: SigningIdentity, details: PdfSignatureDetails): Promise<Buffer> {
  const withPlaceholder = plainAddPlaceholder({
    pdfBuffer: pdf,
    reason: details.reason,
    name: details.name,
    location: details.location,
    contactInfo: details.contactInfo,
    signingTime: details.signingTime,
    subFilter: SUBFILTER_ADOBE_PKCS7_DETACHED,
  });
  return new SignPdf().sign(withPlaceholder, new PemSigner(identity), details.signingTime);
}

export const PDF_SIGNATURE_FAILURES = {
  none: "no signature",
  unreadable: "the signature cannot be read",
  changed: "the document was changed after signing",
  notVerified: "the signature does not verify",
  otherSigner: "signed by a certificate other than the lender's",
} as const;

export type PdfSignatureCheck =
  | { valid: true; signer: string; signedAt: Date | null; certificateSha256: string; expectedSigner: boolean | null }
  | { valid: false; failure: keyof typeof PDF_SIGNATURE_FAILURES; message: string; signer?: string; certificateSha256?: string };

const OIDS = {
  signedData: "1.2.840.113549.1.7.2",
  messageDigest: "1.2.840.113549.1.9.4",
  signingTime: "1.2.840.113549.1.9.5",
} as const;
const DIGESTS: Record<string, string> = {
  "2.16.840.1.101.3.4.2.1": "sha256",
  "2.16.840.1.101.3.4.2.2": "sha384",
  "2.16.840.1.101.3.4.2.3": "sha512",
};

class Unreadable extends Error {}

function fail(failure: keyof typeof PDF_SIGNATURE_FAILURES, extra: { signer?: string; certificateSha256?: string } = {}): PdfSignatureCheck {
  return { valid: false, failure, message: PDF_SIGNATURE_FAILURES[failure], ...extra };
}

function children(node: forge.asn1.Asn1 | undefined): forge.asn1.Asn1[] {
  if (!node || !Array.isArray(node.value)) throw new Unreadable("expected a constructed ASN.1 value");
  return node.value as forge.asn1.Asn1[];
}

function der(node: forge.asn1.Asn1): Buffer {
  return Buffer.from(forge.asn1.toDer(node).getBytes(), "binary");
}

function oid(node: forge.asn1.Asn1 | undefined): string {
  if (!node || node.type !== forge.asn1.Type.OID) throw new Unreadable("expected an object identifier");
  return forge.asn1.derToOid(node.value as string);
}

function isContext(node: forge.asn1.Asn1, tag: number): boolean {
  return node.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC && node.type === tag;
}

/** The serial number as X509Certificate prints it: upper-case hex without leading zeros. */
function serialHex(hex: string): string {
  return hex.replace(/^(00)+(?=.)/, "").toUpperCase();
}

/**
 * Checks the file's (last) signature: its ByteRange covers the whole file but the signature itself, the
 * CMS messageDigest is the digest of the covered bytes, and the signature over the signed attributes
 * verifies with the certificate it names. `expectedCertificateSha256` (hex) also checks who signed.
 */
export function verifyPdfSignature(pdf: Buffer, expectedCertificateSha256?: string): PdfSignatureCheck {
  const text = pdf.toString("latin1");
  const ranges = [...text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)];
  const last = ranges.at(-1);
  if (!last) return fail("none");
  const [start, length1, start2, length2] = last.slice(1, 5).map(Number) as [number, number, number, number];
  // The signature is the hole between the two ranges: <hex>, and nothing else of the file is left out.
  const holeOk = start === 0 && length1 > 0 && start2 > length1 && text[length1] === "<" && text[start2 - 1] === ">";
  if (!holeOk) return fail("unreadable");
  const contentsHex = text.slice(length1 + 1, start2 - 1);
  if (!/^[0-9a-fA-F]*$/.test(contentsHex) || contentsHex.length % 2 !== 0) return fail("unreadable");
  if (start2 + length2 !== pdf.length) return fail("changed");
  const covered = Buffer.concat([pdf.subarray(0, length1), pdf.subarray(start2, start2 + length2)]);

  let signer: string | undefined;
  let fingerprint: string | undefined;
  try {
    // The hole is padded with zeros after the DER value.
    // (node-forge 1.x takes options here; its typings still say only `strict`.)
    const fromDer = forge.asn1.fromDer as unknown as (bytes: forge.util.ByteStringBuffer, options: { parseAllBytes: boolean }) => forge.asn1.Asn1;
    const contentInfo = fromDer(forge.util.createBuffer(Buffer.from(contentsHex, "hex").toString("binary")), { parseAllBytes: false });
    const [typeNode, wrapped] = children(contentInfo);
    if (oid(typeNode) !== OIDS.signedData) throw new Unreadable("not a SignedData");
    const signedData = children(children(wrapped)[0]);
    const certificates = signedData.filter((n) => isContext(n, 0)).flatMap((n) => children(n)).map((n) => new X509Certificate(der(n)));
    const signerInfos = children(signedData.at(-1));
    if (signerInfos.length !== 1) throw new Unreadable("expected one signer");
    const info = children(signerInfos[0]);
    const [, sid, digestAlgorithm] = info;
    const serial = serialHex(forge.util.bytesToHex(children(sid)[1]!.value as string));
    const certificate = certificates.find((c) => serialHex(c.serialNumber) === serial);
    if (!certificate) throw new Unreadable("the signer's certificate is not in the signature");
    signer = subjectName(certificate);
    fingerprint = certificateSha256(certificate);
    const hash = DIGESTS[oid(children(digestAlgorithm)[0])];
    if (!hash) throw new Unreadable("unknown digest algorithm");
    const signedAttrs = info.find((n) => isContext(n, 0));
    const signature = info.find((n) => n.tagClass === forge.asn1.Class.UNIVERSAL && n.type === forge.asn1.Type.OCTETSTRING);
    if (!signedAttrs || !signature) throw new Unreadable("no signed attributes or no signature value");
    const attributes = new Map(children(signedAttrs).map((a) => [oid(children(a)[0]), children(children(a)[1])[0]!] as const));
    const digest = attributes.get(OIDS.messageDigest);
    if (!digest) throw new Unreadable("no messageDigest attribute");
    if (!Buffer.from(digest.value as string, "binary").equals(createHash(hash).update(covered).digest())) return fail("changed", { signer, certificateSha256: fingerprint });
    // The signature is over the attributes' DER with the SET tag, not the [0] they are stored under.
    const attributesDer = der(forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.SET, true, children(signedAttrs)));
    if (!verifySignature(hash, attributesDer, certificate.publicKey, Buffer.from(signature.value as string, "binary"))) {
      return fail("notVerified", { signer, certificateSha256: fingerprint });
    }
    if (expectedCertificateSha256 && fingerprint !== expectedCertificateSha256.toLowerCase()) return fail("otherSigner", { signer, certificateSha256: fingerprint });
    const time = attributes.get(OIDS.signingTime);
    const signedAt = time ? (time.type === forge.asn1.Type.UTCTIME ? forge.asn1.utcTimeToDate(time.value as string) : forge.asn1.generalizedTimeToDate(time.value as string)) : null;
    return { valid: true, signer, signedAt, certificateSha256: fingerprint, expectedSigner: expectedCertificateSha256 ? true : null };
  } catch {
    // Malformed ASN.1, a certificate node cannot read, a key that does not fit the algorithm: nothing verified.
    return fail(signer ? "notVerified" : "unreadable", { ...(signer ? { signer } : {}), ...(fingerprint ? { certificateSha256: fingerprint } : {}) });
  }
}
