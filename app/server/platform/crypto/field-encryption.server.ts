import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { getConfig, type EncryptionKey } from "~/server/platform/config.server";

/**
 * AES-256-GCM for sensitive columns (SSN, account and routing numbers). Stored form:
 *   enc:v<key version>:<base64 of 12-byte IV ‖ 16-byte tag ‖ ciphertext>
 * The key version lets ENCRYPTION_KEY rotate: new values use the first (newest) key, old values
 * still decrypt with the key named in them. The purpose (e.g. "loan_applications.ssn") is bound in as
 * associated data, so a ciphertext copied into another column does not decrypt.
 */

const PREFIX = "enc:";
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class FieldDecryptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FieldDecryptionError";
  }
}

export function isEncrypted(value: string | null | undefined): boolean {
  return typeof value === "string" && /^enc:v\d+:[A-Za-z0-9+/=]+$/.test(value);
}

export function encryptField(plaintext: string, purpose: string, keys: EncryptionKey[] = getConfig().encryptionKeys): string {
  const current = keys[0];
  if (!current) throw new Error("No encryption key configured");
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", current.key, iv);
  cipher.setAAD(Buffer.from(purpose, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return `${PREFIX}v${current.version}:${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString("base64")}`;
}

export function decryptField(stored: string, purpose: string, keys: EncryptionKey[] = getConfig().encryptionKeys): string {
  const match = /^enc:v(\d+):([A-Za-z0-9+/=]+)$/.exec(stored);
  if (!match) throw new FieldDecryptionError("Not an encrypted value");
  const key = keys.find((k) => k.version === Number(match[1]));
  if (!key) throw new FieldDecryptionError(`No key v${match[1]} is configured`);
  const raw = Buffer.from(match[2]!, "base64");
  if (raw.length < IV_BYTES + TAG_BYTES) throw new FieldDecryptionError("Ciphertext too short");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key.key, raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(purpose, "utf8"));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
  } catch {
    throw new FieldDecryptionError("The value does not decrypt with its key (altered, or a different purpose)");
  }
}

/** True when the value was written with an older key than the current one (re-encrypt on rotation). */
export function needsReencryption(stored: string, keys: EncryptionKey[] = getConfig().encryptionKeys): boolean {
  const version = /^enc:v(\d+):/.exec(stored)?.[1];
  return version !== undefined && Number(version) !== keys[0]?.version;
}
