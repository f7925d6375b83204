import { createHmac, hkdfSync } from "node:crypto";
import { getConfig, type EncryptionKey } from "~/server/platform/config.server";

/**
 * Keyed blind index: lets staff find a row by the last 4 digits of an SSN or account
 * number without decrypting anything, and without storing a plain hash (10,000 possible values: a
 * plain hash is reversed by trying them all). Each token is an HMAC-SHA-256 under a key derived
 * with HKDF from an encryption key and a label of its own, so the AES key itself is never used for
 * it and the index key rotates whenever ENCRYPTION_KEY does.
 *
 *   token = "v<key version>:" + base64url(first 16 bytes of HMAC(k_v, purpose ‖ NUL ‖ normalised value))
 *
 * A search computes the token under every configured key version and matches any of them, so rows
 * indexed before a rotation are still found until the encryption migration re-indexes them.
 */

export const BLIND_INDEX_PURPOSES = {
  ssnLast4: "loan_applications.ssn_last4",
  accountLast4: "bank_accounts.account_last4",
} as const;

export type BlindIndexPurpose = (typeof BLIND_INDEX_PURPOSES)[keyof typeof BLIND_INDEX_PURPOSES];

const HKDF_INFO = "portal blind index v1";
const TOKEN_BYTES = 16;
const TOKEN = /^v(\d+):[A-Za-z0-9_-]{22}$/;

// Derivation costs a hash per call; keys are few and fixed for the process, so it is kept per key buffer.
const derived = new WeakMap<Buffer, Buffer>();

/** The HMAC key for one encryption key: HKDF-SHA-256(ikm = the AES key, no salt, info = HKDF_INFO). */
export function blindIndexKey(key: EncryptionKey): Buffer {
  let k = derived.get(key.key);
  if (!k) {
    k = Buffer.from(hkdfSync("sha256", key.key, Buffer.alloc(0), HKDF_INFO, 32));
    derived.set(key.key, k);
  }
  return k;
}

/** The last 4 digits of a number as typed (formatting ignored), or null with fewer than 4 digits. */
export function lastFourDigits(value: string | null | undefined): string | null {
  const digits = (value ?? "").replace(/\D/g, "");
  return digits.length >= 4 ? digits.slice(-4) : null;
}

function tokenUnder(key: EncryptionKey, purpose: BlindIndexPurpose, normalised: string): string {
  const mac = createHmac("sha256", blindIndexKey(key)).update(`${purpose}\0${normalised}`, "utf8").digest();
  return `v${key.version}:${mac.subarray(0, TOKEN_BYTES).toString("base64url")}`;
}

/** The token to store for the last 4 digits of `value` under the current key, or null when it has fewer than 4 digits. */
export function lastFourToken(
  value: string | null | undefined,
  purpose: BlindIndexPurpose,
  keys: EncryptionKey[] = getConfig().encryptionKeys,
): string | null {
  const last4 = lastFourDigits(value);
  const current = keys[0];
  if (last4 === null) return null;
  if (!current) throw new Error("No encryption key configured");
  return tokenUnder(current, purpose, last4);
}

/** Every token 4 digits may be stored under (one per configured key version): what a search matches. */
export function lastFourSearchTokens(
  last4: string,
  purpose: BlindIndexPurpose,
  keys: EncryptionKey[] = getConfig().encryptionKeys,
): string[] {
  if (!/^\d{4}$/.test(last4)) return [];
  return keys.map((key) => tokenUnder(key, purpose, last4));
}

/** True when a stored token is missing or was made under another key than the current one (re-index it). */
export function needsReindex(token: string | null | undefined, keys: EncryptionKey[] = getConfig().encryptionKeys): boolean {
  const version = token ? TOKEN.exec(token)?.[1] : undefined;
  return version === undefined || Number(version) !== keys[0]?.version;
}
