import { writeAudit, type AuditActor, type Caller } from "~/server/platform/audit/audit.server";
import { getConfig, type EncryptionKey } from "~/server/platform/config.server";
import { migrationFilters, type MigrationRun, type Tally } from "~/server/platform/crypto/value-migration.server";
import { getDb, type Db } from "~/server/platform/db/client.server";
import { migrateMfaSecrets, mfaSecretCount } from "~/server/accounts/index.server";
import { migrateBankAccountValues, migrateSsnValues, sealedApplicationValueCount } from "~/server/applications/index.server";
import { achFileCount, migrateAchFiles } from "~/server/loans/index.server";

/**
 * 'Encrypt Existing Bank Data' (docs/requirements.md §1, §7, §8 migrate-bank-encryption): encrypts every sensitive
 * value still stored in plain text — bank_accounts.account_number / routing_number,
 * loan_applications.ssn_encrypted and the stored NACHA files (ach_batches.content) — and re-encrypts values written with an older key than the current
 * one (key rotation). Encrypting an account or routing number also refreshes its plaintext last-4 /
 * last-2 digits for the masked display.
 *
 * - Counts are per value: an account row holds two, an application with an SSN one. A value is
 *   'encrypted' when this run wrote it (plain text or an old key), 'skipped' when it already was
 *   ciphertext under the current key, 'failed' when an old-key value does not decrypt (its key is gone).
 * - Only rows needing work are read (a regular-expression filter in SQL), in batches ordered by id,
 *   each batch in its own transaction, so 10,000 rows never sit in memory and a failure keeps the
 *   batches already done: running it again simply continues.
 * - Each UPDATE is conditional on the value it read (… WHERE account_number = <what was read>), so two
 *   admins running it at once never encrypt a value twice.
 * - One audit row 'encryption.migrate' records the outcome, also of a run that failed halfway.
 * - It also (re)computes the keyed blind indexes of the SSN / account-number last 4 (*   crypto/blind-index.server.ts) of every row whose index is missing or made under an older key,
 *   decrypting the value when it is otherwise current: run after migration 0011 it indexes every
 *   existing row, and after a key rotation it re-indexes them under the new key.
 */

export type EncryptionMigrationResult = {
  encrypted: number;
  skipped: number;
  failed: number;
  bankValues: { encrypted: number; failed: number };
  ssnValues: { encrypted: number; failed: number };
  /** Staff second-factor secrets: never plain text, but re-encrypted on key rotation like the rest. */
  mfaSecrets: { encrypted: number; failed: number };
  /** Blind-index tokens written (missing, or under an older key) and values that could not be read for one. */
  searchIndexes: { indexed: number; failed: number };
  /** Stored NACHA files (full account and routing numbers): sealed when still plain text, re-encrypted on rotation. */
  achFiles: { encrypted: number; failed: number };
};

export type EncryptionMigrationOptions = { batchSize?: number; keys?: EncryptionKey[] };

const DEFAULT_BATCH = 200;

export async function runEncryptionMigration(
  { actor, request }: Caller<AuditActor | null>,
  db: Db = getDb(),
  options: EncryptionMigrationOptions = {},
): Promise<EncryptionMigrationResult> {
  const keys = options.keys ?? getConfig().encryptionKeys;
  const current = keys[0];
  if (!current) throw new Error("No encryption key configured");
  const batchSize = Math.max(1, options.batchSize ?? DEFAULT_BATCH);
  const run: MigrationRun = { keys, batchSize, ...migrationFilters(current.version) };

  const bank: Tally = { encrypted: 0, failed: 0 };
  const ssn: Tally = { encrypted: 0, failed: 0 };
  const mfa: Tally = { encrypted: 0, failed: 0 };
  const ach: Tally = { encrypted: 0, failed: 0 };
  const indexes = { indexed: 0, failed: 0 };
  // One audit row per run, whether it completed or failed halfway.
  const audit = (details: Record<string, unknown>) =>
    writeAudit(db, { actor, action: "encryption.migrate", table: "bank_accounts", details, request });

  try {
    // Each owner migrates its own sealed columns, in this order.
    await migrateBankAccountValues(db, run, bank, indexes);
    await migrateSsnValues(db, run, ssn, indexes);
    // Admins' TOTP secrets: without this, dropping an old key would lock out every admin enrolled under it.
    await migrateMfaSecrets(db, run, mfa);
    await migrateAchFiles(db, run, ach);

    const total = (await sealedApplicationValueCount(db)) + (await mfaSecretCount(db)) + (await achFileCount(db));
    const encrypted = bank.encrypted + ssn.encrypted + mfa.encrypted + ach.encrypted;
    const failed = bank.failed + ssn.failed + mfa.failed + ach.failed;
    const result: EncryptionMigrationResult = {
      encrypted,
      skipped: Math.max(0, total - encrypted - failed),
      failed,
      bankValues: bank,
      ssnValues: ssn,
      mfaSecrets: mfa,
      searchIndexes: indexes,
      achFiles: ach,
    };
    await audit({ ...result, keyVersion: current.version, completed: true });
    return result;
  } catch (error) {
    // The batches already committed stay; the log says how far the run got.
    await audit({
      completed: false,
      bankValues: bank,
      ssnValues: ssn,
      mfaSecrets: mfa,
      searchIndexes: indexes,
      achFiles: ach,
      keyVersion: current.version,
      error: error instanceof Error ? error.message.slice(0, 300) : "unknown error",
    }).catch(() => undefined);
    throw error;
  }
}
