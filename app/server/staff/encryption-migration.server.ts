import { and, asc, count, eq, gt, isNotNull, isNull, ne, or, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { ENCRYPTION_PURPOSES } from "~/server/platform/crypto/encryption-purposes.server";
import { writeAudit, type AuditActor, type RequestInfo } from "~/server/platform/audit/audit.server";
import { getConfig, type EncryptionKey } from "~/server/platform/config.server";
import { decryptField, encryptField, isEncrypted, needsReencryption } from "~/server/platform/crypto/field-encryption.server";
import { BLIND_INDEX_PURPOSES, lastFourToken, needsReindex } from "~/server/platform/crypto/blind-index.server";
import { getDb, type Db, type Tx } from "~/server/platform/db/client.server";
import { MFA_SECRET_PURPOSE } from "~/server/accounts/mfa.server";
import { achBatches, adminMfa, bankAccounts, loanApplications } from "~/server/platform/db/schema.server";

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

/** Plain text → ciphertext under the current key; old ciphertext → re-encrypted; current → null. */
function migrateValue(value: string, purpose: string, keys: EncryptionKey[]): { stored: string; plain: string } | "current" | "failed" {
  if (!isEncrypted(value)) return { stored: encryptField(value, purpose, keys), plain: value };
  if (!needsReencryption(value, keys)) return "current";
  try {
    const plain = decryptField(value, purpose, keys);
    return { stored: encryptField(plain, purpose, keys), plain };
  } catch {
    return "failed";
  }
}

/** The plain value of a stored one, for its blind index: from the migration when it ran, else decrypted (null when it does not decrypt). */
function plainFor(value: string, next: Migrated, purpose: string, keys: EncryptionKey[]): string | null {
  if (typeof next === "object") return next.plain;
  if (next === "failed") return null;
  try {
    return decryptField(value, purpose, keys);
  } catch {
    return null;
  }
}

/** The trailing `n` digits of a number as typed, or null when it has fewer digits. */
function lastDigits(plain: string, n: number): string | null {
  const digits = plain.replace(/\D/g, "");
  return digits.length >= n ? digits.slice(-n) : null;
}

/** The two encrypted values of a bank_accounts row, each with the plaintext digits kept for the masked display. */
const BANK_NUMBERS = [
  { column: "accountNumber", purpose: ENCRYPTION_PURPOSES.accountNumber, lastColumn: "accountNumberLast4", lastCount: 4 },
  { column: "routingNumber", purpose: ENCRYPTION_PURPOSES.routingNumber, lastColumn: "routingNumberLast2", lastCount: 2 },
] as const;

type Tally = { encrypted: number; failed: number };
type Migrated = ReturnType<typeof migrateValue>;

/**
 * Stores one migrated value with `write` (an UPDATE conditional on the value read, returning the rows
 * it changed) and counts the outcome. A row changed meanwhile (another run got there first) is left to
 * that run and counted as skipped.
 */
async function storeMigrated(tally: Tally, next: Migrated, write: (stored: string) => Promise<unknown[]>): Promise<void> {
  if (next === "failed") {
    tally.failed++;
    return;
  }
  if (next === "current") return;
  if ((await write(next.stored)).length > 0) tally.encrypted++;
}

/** Reads rows in id order, batch after batch (each read after the last id seen), handling each batch in its own transaction. */
async function forEachBatch<Row extends { id: string }>(
  db: Db,
  read: (afterId: string | null) => Promise<Row[]>,
  handle: (tx: Tx, rows: Row[]) => Promise<void>,
): Promise<void> {
  let lastId: string | null = null;
  for (;;) {
    const rows = await read(lastId);
    if (rows.length === 0) return;
    lastId = rows.at(-1)!.id;
    await db.transaction((tx) => handle(tx, rows));
  }
}

export async function runEncryptionMigration(
  actor: AuditActor | null,
  request: RequestInfo = {},
  db: Db = getDb(),
  options: EncryptionMigrationOptions = {},
): Promise<EncryptionMigrationResult> {
  const keys = options.keys ?? getConfig().encryptionKeys;
  const current = keys[0];
  if (!current) throw new Error("No encryption key configured");
  const batchSize = Math.max(1, options.batchSize ?? DEFAULT_BATCH);
  // Ciphertext under the current key; anything else needs work. Mirrors isEncrypted()'s pattern.
  const currentPattern = `^enc:v${current.version}:[A-Za-z0-9+/=]+$`;
  const notCurrent = (column: AnyPgColumn) => sql`${column} !~ ${currentPattern}`;
  // A blind index missing or under another key (its form: v<version>:<token>).
  const stale = (column: AnyPgColumn) => or(isNull(column), sql`${column} not like ${`v${current.version}:%`}`);

  const bank: Tally = { encrypted: 0, failed: 0 };
  const ssn: Tally = { encrypted: 0, failed: 0 };
  const mfa: Tally = { encrypted: 0, failed: 0 };
  const ach: Tally = { encrypted: 0, failed: 0 };
  const indexes = { indexed: 0, failed: 0 };
  // One audit row per run, whether it completed or failed halfway.
  const audit = (details: Record<string, unknown>) =>
    writeAudit(db, { actor, action: "encryption.migrate", table: "bank_accounts", details, request });

  try {
    // Bank accounts: account and routing numbers.
    await forEachBatch(
      db,
      (lastId) =>
        db
          .select({
            id: bankAccounts.id,
            accountNumber: bankAccounts.accountNumber,
            routingNumber: bankAccounts.routingNumber,
            accountLast4Index: bankAccounts.accountLast4Index,
          })
          .from(bankAccounts)
          .where(
            and(
              lastId ? gt(bankAccounts.id, lastId) : undefined,
              or(notCurrent(bankAccounts.accountNumber), notCurrent(bankAccounts.routingNumber), stale(bankAccounts.accountLast4Index)),
            ),
          )
          .orderBy(asc(bankAccounts.id))
          .limit(batchSize),
      async (tx, rows) => {
        for (const row of rows) {
          const set: Partial<typeof bankAccounts.$inferInsert> = {};
          let written = 0;
          let accountPlain: string | null = null;
          for (const { column, purpose, lastColumn, lastCount } of BANK_NUMBERS) {
            const next = migrateValue(row[column], purpose, keys);
            if (next === "failed") bank.failed++;
            if (column === "accountNumber" && needsReindex(row.accountLast4Index, keys)) {
              accountPlain = plainFor(row[column], next, purpose, keys);
            }
            if (typeof next !== "object") continue;
            set[column] = next.stored;
            const last = lastDigits(next.plain, lastCount);
            if (last) set[lastColumn] = last;
            written++;
          }
          let reindexed = false;
          if (needsReindex(row.accountLast4Index, keys)) {
            const token = accountPlain === null ? null : lastFourToken(accountPlain, BLIND_INDEX_PURPOSES.accountLast4, keys);
            if (token) {
              set.accountLast4Index = token;
              reindexed = true;
            } else indexes.failed++;
          }
          if (written === 0 && !reindexed) continue;
          const updated = await tx
            .update(bankAccounts)
            .set(set)
            .where(
              and(
                eq(bankAccounts.id, row.id),
                eq(bankAccounts.accountNumber, row.accountNumber),
                eq(bankAccounts.routingNumber, row.routingNumber),
              ),
            )
            .returning({ id: bankAccounts.id });
          // Changed meanwhile (another run got there first): left to that run, counted as skipped.
          if (updated.length > 0) {
            bank.encrypted += written;
            if (reindexed) indexes.indexed++;
          }
        }
      },
    );

    // Applications: the SSN (null or empty means none was given).
    await forEachBatch(
      db,
      (lastId) =>
        db
          .select({ id: loanApplications.id, ssn: loanApplications.ssnEncrypted, ssnLast4Index: loanApplications.ssnLast4Index })
          .from(loanApplications)
          .where(
            and(
              lastId ? gt(loanApplications.id, lastId) : undefined,
              isNotNull(loanApplications.ssnEncrypted),
              ne(loanApplications.ssnEncrypted, ""),
              or(notCurrent(loanApplications.ssnEncrypted), stale(loanApplications.ssnLast4Index)),
            ),
          )
          .orderBy(asc(loanApplications.id))
          .limit(batchSize),
      async (tx, rows) => {
        for (const { id, ssn: value, ssnLast4Index } of rows) {
          if (!value) continue;
          const next = migrateValue(value, ENCRYPTION_PURPOSES.ssn, keys);
          if (!needsReindex(ssnLast4Index, keys)) {
            await storeMigrated(ssn, next, (stored) =>
              tx
                .update(loanApplications)
                .set({ ssnEncrypted: stored })
                .where(and(eq(loanApplications.id, id), eq(loanApplications.ssnEncrypted, value)))
                .returning({ id: loanApplications.id }),
            );
            continue;
          }
          const plain = plainFor(value, next, ENCRYPTION_PURPOSES.ssn, keys);
          const token = plain === null ? null : lastFourToken(plain, BLIND_INDEX_PURPOSES.ssnLast4, keys);
          if (next === "failed") ssn.failed++;
          if (!token) indexes.failed++;
          if (typeof next !== "object" && !token) continue;
          const updated = await tx
            .update(loanApplications)
            .set({ ...(typeof next === "object" ? { ssnEncrypted: next.stored } : {}), ...(token ? { ssnLast4Index: token } : {}) })
            .where(and(eq(loanApplications.id, id), eq(loanApplications.ssnEncrypted, value)))
            .returning({ id: loanApplications.id });
          if (updated.length === 0) continue;
          if (typeof next === "object") ssn.encrypted++;
          if (token) indexes.indexed++;
        }
      },
    );

    // Admins' TOTP secrets: a handful of rows, so one pass. Without this, dropping an old key would
    // lock out every admin enrolled under it.
    const secrets = await db
      .select({ userId: adminMfa.userId, secret: adminMfa.secretEncrypted })
      .from(adminMfa)
      .where(notCurrent(adminMfa.secretEncrypted));
    for (const row of secrets) {
      await storeMigrated(mfa, migrateValue(row.secret, MFA_SECRET_PURPOSE, keys), (stored) =>
        db
          .update(adminMfa)
          .set({ secretEncrypted: stored })
          .where(and(eq(adminMfa.userId, row.userId), eq(adminMfa.secretEncrypted, row.secret)))
          .returning({ userId: adminMfa.userId }),
      );
    }

    // NACHA files: one file a row, a few at a time (each can be large).
    await forEachBatch(
      db,
      (lastId) =>
        db
          .select({ id: achBatches.id, content: achBatches.content })
          .from(achBatches)
          .where(and(lastId ? gt(achBatches.id, lastId) : undefined, notCurrent(achBatches.content)))
          .orderBy(asc(achBatches.id))
          .limit(Math.min(batchSize, 20)),
      async (tx, rows) => {
        for (const row of rows)
          await storeMigrated(ach, migrateValue(row.content, ENCRYPTION_PURPOSES.achFile, keys), (stored) =>
            tx
              .update(achBatches)
              .set({ content: stored })
              .where(and(eq(achBatches.id, row.id), eq(achBatches.content, row.content)))
              .returning({ id: achBatches.id }),
          );
      },
    );

    const [bankRows] = await db.select({ n: count() }).from(bankAccounts);
    const [ssnRows] = await db
      .select({ n: count() })
      .from(loanApplications)
      .where(and(isNotNull(loanApplications.ssnEncrypted), ne(loanApplications.ssnEncrypted, "")));
    const [mfaRows] = await db.select({ n: count() }).from(adminMfa);
    const [achRows] = await db.select({ n: count() }).from(achBatches);
    const total = Number(bankRows?.n ?? 0) * 2 + Number(ssnRows?.n ?? 0) + Number(mfaRows?.n ?? 0) + Number(achRows?.n ?? 0);
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
