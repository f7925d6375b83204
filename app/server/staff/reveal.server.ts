import { logFailure } from "~/server/platform/log/describe-error.server";
import { REVEAL_MESSAGES, revealRequestSchema } from "~/domain/reveal";
import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";
import type { EncryptionKey } from "~/server/platform/config.server";
import { decryptField, FieldDecryptionError } from "~/server/platform/crypto/field-encryption.server";
import { getDb, type Db } from "~/server/platform/db/client.server";
import { sealedValue } from "~/server/applications/index.server";
import type { ServiceAnswer } from "~/server/platform/http/action-answer.server";
import { THROTTLES, throttleRefusal } from "~/server/platform/security/throttle.server";

/**
 * An admin's explicit reveal of ONE sensitive value (docs/requirements.md §6, §8, §9): an application's SSN, or a
 * bank account's account or routing number. The server decides (is there a value?), decrypts only that
 * value and writes the audit row before answering; if the audit row cannot be written, the value is
 * not returned. Nothing else is decrypted, and nothing is cached.
 */

/** Counts this admin's reveal (THROTTLES.revealPerAdmin); the 429 answer when over the limit, else null. */
export function revealThrottled(admin: { id: string }): Promise<ServiceAnswer<{ title: string; message: string }> | null> {
  return throttleRefusal([[`reveal:admin:${admin.id}`, THROTTLES.revealPerAdmin]], (message) => ({ title: "Error", message }));
}

export type RevealResult =
  | { status: 200; body: { value: string; legacy?: true } }
  | { status: 400 | 404 | 422 | 500; body: { title: string; message: string } };

/** A legacy plaintext value the spec shows as-is when it does not decrypt: digits only, 6 or more. */
const LEGACY_PLAINTEXT = /^\d{6,}$/;

export type DecryptOutcome = { ok: true; value: string; legacy: boolean } | { ok: false };

/** Decrypts a stored value; an undecryptable all-digit value (6+) is legacy plaintext and returned raw. */
export function decryptOrLegacy(stored: string, purpose: string, keys?: EncryptionKey[]): DecryptOutcome {
  try {
    return { ok: true, value: keys ? decryptField(stored, purpose, keys) : decryptField(stored, purpose), legacy: false };
  } catch (error) {
    if (!(error instanceof FieldDecryptionError)) throw error;
    const raw = stored.trim();
    if (LEGACY_PLAINTEXT.test(raw)) return { ok: true, value: raw, legacy: true };
    return { ok: false };
  }
}

export type RevealOptions = {
  db?: Db;
  /** Keys to decrypt with (tests); the configured keys by default. */
  keys?: EncryptionKey[];
  /** Test seam: the audit writer (a failing one proves no value leaves without its audit row). */
  audit?: typeof writeAudit;
};

/**
 * Reveals one value for `actor` (already known to be an admin with a verified second factor).
 * 200 {value} (with legacy: true for old plaintext), 404 'No SSN Available' or not found,
 * 422 'Decryption Error', 500 when the audit row could not be written (no value then).
 */
export async function revealSensitiveValue(input: unknown, { actor, request }: Caller, options: RevealOptions = {}): Promise<RevealResult> {
  const parsed = revealRequestSchema.safeParse(input);
  if (!parsed.success) return { status: 400, body: { ...REVEAL_MESSAGES.invalid } };
  const db = options.db ?? getDb();
  const audit = options.audit ?? writeAudit;
  const { kind, id } = parsed.data;

  const target = await sealedValue(parsed.data, db);
  if (!target) return { status: 404, body: { ...REVEAL_MESSAGES.notFound } };

  const hasValue = typeof target.stored === "string" && target.stored.trim() !== "";
  const outcome: DecryptOutcome | null = hasValue ? decryptOrLegacy(target.stored!, target.purpose, options.keys) : null;
  const result = !outcome ? "none" : !outcome.ok ? "decrypt_failed" : outcome.legacy ? "legacy_plaintext" : "revealed";

  try {
    await audit(db, {
      actor,
      action: kind === "ssn" ? "ssn.reveal" : "bank.reveal",
      table: target.table,
      recordId: id,
      details: { dataType: kind, clientId: target.clientId, result },
      request,
    });
  } catch (error) {
    logFailure("reveal", "audit write failed; value withheld", error, { admin: actor.id });
    return { status: 500, body: { ...REVEAL_MESSAGES.auditFailed } };
  }

  if (!outcome) {
    return kind === "ssn"
      ? { status: 404, body: { ...REVEAL_MESSAGES.noSsn } }
      : { status: 404, body: { ...REVEAL_MESSAGES.notFound } };
  }
  if (!outcome.ok) return { status: 422, body: { ...REVEAL_MESSAGES.decryptFailed } };
  return { status: 200, body: outcome.legacy ? { value: outcome.value, legacy: true } : { value: outcome.value } };
}
