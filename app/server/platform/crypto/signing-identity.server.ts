import { createPrivateKey, generateKeyPairSync, X509Certificate } from "node:crypto";
import forge from "node-forge";

/**
 * The certificate and key that sign documents (the lender's seal on a PDF): read from PEM files an
 * operator configures, or, for a local run, a self-signed certificate made once and kept with the
 * other generated secrets.
 */

/** A certificate and its private key (PEM), with what the signature names: the subject and the SHA-256 of the certificate (hex). */
export type SigningIdentity = { certPem: string; keyPem: string; subject: string; certificateSha256: string };

const CERT_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/;
const KEY_BLOCK = /-----BEGIN (?:RSA |)PRIVATE KEY-----[\s\S]+?-----END (?:RSA |)PRIVATE KEY-----/;

/** The SHA-256 of a certificate's DER bytes, lower-case hex (what `openssl x509 -fingerprint -sha256` prints, without colons). */
export function certificateSha256(certificate: X509Certificate): string {
  return certificate.fingerprint256.replace(/:/g, "").toLowerCase();
}

/** The subject's common name, else the whole subject on one line. */
export function subjectName(certificate: X509Certificate): string {
  const cn = /^CN=(.*)$/m.exec(certificate.subject);
  // Node escapes RFC 4514's special characters ("Lending\, LLC"); the name is read without them.
  return (cn?.[1] ?? certificate.subject.replace(/\n/g, ", ")).replace(/\\(.)/g, "$1").trim();
}

/**
 * The identity from PEM text: the first certificate and the first private key found (one file may hold
 * both). Throws when either is missing, the key is not RSA (node-forge signs with RSA only) or the key
 * does not belong to the certificate.
 */
export function signingIdentity(certPemText: string, keyPemText: string): SigningIdentity {
  const certPem = CERT_BLOCK.exec(certPemText)?.[0];
  const keyPem = KEY_BLOCK.exec(keyPemText)?.[0];
  if (!certPem) throw new Error("no PEM certificate (-----BEGIN CERTIFICATE-----) found");
  if (!keyPem) throw new Error("no PEM private key (-----BEGIN PRIVATE KEY-----) found");
  const certificate = new X509Certificate(certPem);
  const key = createPrivateKey(keyPem);
  if (key.asymmetricKeyType !== "rsa") throw new Error(`the private key is ${key.asymmetricKeyType ?? "of an unknown type"}; an RSA key is needed`);
  if (!certificate.checkPrivateKey(key)) throw new Error("the private key does not belong to the certificate");
  return { certPem, keyPem: key.export({ type: "pkcs8", format: "pem" }).toString(), subject: subjectName(certificate), certificateSha256: certificateSha256(certificate) };
}

/**
 * A new self-signed certificate for `commonName` (RSA 2048, SHA-256, valid ten years from `now`), as one
 * PEM text holding the certificate and then the key: for local use when no certificate is configured.
 */
export function selfSignedIdentityPem(commonName: string, now = new Date()): string {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const keyPem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: "spki", format: "pem" }).toString());
  // A positive 16-byte serial (a leading 0 nibble keeps the DER integer positive).
  cert.serialNumber = `0${forge.util.bytesToHex(forge.random.getBytesSync(16)).slice(1)}`;
  cert.validity.notBefore = now;
  cert.validity.notAfter = new Date(now.getTime());
  cert.validity.notAfter.setUTCFullYear(now.getUTCFullYear() + 10);
  const name = [{ name: "commonName", value: commonName }, { name: "organizationName", value: commonName }];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.setExtensions([
    { name: "basicConstraints", cA: false },
    { name: "keyUsage", critical: true, digitalSignature: true, nonRepudiation: true },
    { name: "subjectKeyIdentifier" },
  ]);
  cert.sign(forge.pki.privateKeyFromPem(keyPem), forge.md.sha256.create());
  return `${forge.pki.certificateToPem(cert)}${keyPem}`;
}
