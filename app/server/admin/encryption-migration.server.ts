import { and, asc, count, eq, gt, isNotNull, ne, or, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { ENCRYPTION_PURPOSES } from "~/server/crypto/encryption-purposes.server";
import { writeAudit, type AuditActor, type RequestInfo } from "~/server/audit.server";
import { getConfig, type EncryptionKey } from "~/server/config.server";
import { decryptField, encryptField, isEncrypted, needsReencryption } from "~/server/crypto/field-encryption.server";
import { getDb, type Db } from "~/server/db/client.server";
import { MFA_SECRET_PURPOSE } from "~/server/auth/mfa.server";
import { adminMfa, bankAccounts, loanApplications } from "~/server/db/schema.server";

/**
 * 'Encrypt Existing Bank Data' (docs/requirements.md §1, §7, §8 migrate-bank-encryption): encrypts every sensitive
 * value still stored in plain text — bank_accounts.account_number / routing_number and
 * loan_applications.ssn_encrypted — and re-encrypts values written with an older key than the current
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
 */

export type EncryptionMigrationResult = {
  encrypted: number;
  skipped: number;
  failed: number;
  bankValues: { encrypted: number; failed: number };
  ssnValues: { encrypted: number; failed: number };
  /** Staff second-factor secrets: never plain text, but re-encrypted on key rotation like the rest. */
  mfaSecrets: { encrypted: number; failed: number };
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

/** The trailing `n` digits of a number as typed, or null when it has fewer digits. */
function lastDigits(plain: string, n: number): string | null {
  const digits = plain.replace(/\D/g, "");
  return digits.length >= n ? digits.slice(-n) : null;
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

  const bank = { encrypted: 0, failed: 0 };
  const ssn = { encrypted: 0, failed: 0 };
  const mfa = { encrypted: 0, failed: 0 };

  try {
    // Bank accounts: account and routing numbers.
    let lastId: string | null = null;
    for (;;) {
      const rows: { id: string; accountNumber: string; routingNumber: string }[] = await db
        .select({ id: bankAccounts.id, accountNumber: bankAccounts.accountNumber, routingNumber: bankAccounts.routingNumber })
        .from(bankAccounts)
        .where(
          and(
            lastId ? gt(bankAccounts.id, lastId) : undefined,
            or(notCurrent(bankAccounts.accountNumber), notCurrent(bankAccounts.routingNumber)),
          ),
        )
        .orderBy(asc(bankAccounts.id))
        .limit(batchSize);
      if (rows.length === 0) break;
      lastId = rows.at(-1)!.id;
      await db.transaction(async (tx) => {
        for (const row of rows) {
          const account = migrateValue(row.accountNumber, ENCRYPTION_PURPOSES.accountNumber, keys);
          const routing = migrateValue(row.routingNumber, ENCRYPTION_PURPOSES.routingNumber, keys);
          const failed = Number(account === "failed") + Number(routing === "failed");
          const set: Partial<typeof bankAccounts.$inferInsert> = {};
          let written = 0;
          if (typeof account === "object") {
            set.accountNumber = account.stored;
            const last4 = lastDigits(account.plain, 4);
            if (last4) set.accountNumberLast4 = last4;
            written++;
          }
          if (typeof routing === "object") {
            set.routingNumber = routing.stored;
            const last2 = lastDigits(routing.plain, 2);
            if (last2) set.routingNumberLast2 = last2;
            written++;
          }
          bank.failed += failed;
          if (written === 0) continue;
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
          if (updated.length > 0) bank.encrypted += written;
        }
      });
    }

    // Applications: the SSN (null or empty means none was given).
    lastId = null;
    for (;;) {
      const rows: { id: string; ssn: string | null }[] = await db
        .select({ id: loanApplications.id, ssn: loanApplications.ssnEncrypted })
        .from(loanApplications)
        .where(
          and(
            lastId ? gt(loanApplications.id, lastId) : undefined,
            isNotNull(loanApplications.ssnEncrypted),
            ne(loanApplications.ssnEncrypted, ""),
            notCurrent(loanApplications.ssnEncrypted),
          ),
        )
        .orderBy(asc(loanApplications.id))
        .limit(batchSize);
      if (rows.length === 0) break;
      lastId = rows.at(-1)!.id;
      await db.transaction(async (tx) => {
        for (const row of rows) {
          if (!row.ssn) continue;
          const next = migrateValue(row.ssn, ENCRYPTION_PURPOSES.ssn, keys);
          if (next === "failed") {
            ssn.failed++;
            continue;
          }
          if (next === "current") continue;
          const updated = await tx
            .update(loanApplications)
            .set({ ssnEncrypted: next.stored })
            .where(and(eq(loanApplications.id, row.id), eq(loanApplications.ssnEncrypted, row.ssn)))
            .returning({ id: loanApplications.id });
          if (updated.length > 0) ssn.encrypted++;
        }
      });
    }

    // Admins' TOTP secrets: a handful of rows, so one pass. Without this, dropping an old key would
    // lock out every admin enrolled under it.
    const secrets = await db
      .select({ userId: adminMfa.userId, secret: adminMfa.secretEncrypted })
      .from(adminMfa)
      .where(notCurrent(adminMfa.secretEncrypted));
    for (const row of secrets) {
      const next = migrateValue(row.secret, MFA_SECRET_PURPOSE, keys);
      if (next === "failed") {
        mfa.failed++;
        continue;
      }
      if (next === "current") continue;
      const updated = await db
        .update(adminMfa)
        .set({ secretEncrypted: next.stored })
        .where(and(eq(adminMfa.userId, row.userId), eq(adminMfa.secretEncrypted, row.secret)))
        .returning({ userId: adminMfa.userId });
      if (updated.length > 0) mfa.encrypted++;
    }

    const [bankRows] = await db.select({ n: count() }).from(bankAccounts);
    const [ssnRows] = await db
      .select({ n: count() })
      .from(loanApplications)
      .where(and(isNotNull(loanApplications.ssnEncrypted), ne(loanApplications.ssnEncrypted, "")));
    const [mfaRows] = await db.select({ n: count() }).from(adminMfa);
    const total = Number(bankRows?.n ?? 0) * 2 + Number(ssnRows?.n ?? 0) + Number(mfaRows?.n ?? 0);
    const encrypted = bank.encrypted + ssn.encrypted + mfa.encrypted;
    const failed = bank.failed + ssn.failed + mfa.failed;
    const result: EncryptionMigrationResult = {
      encrypted,
      skipped: Math.max(0, total - encrypted - failed),
      failed,
      bankValues: bank,
      ssnValues: ssn,
      mfaSecrets: mfa,
    };
    await writeAudit(db, {
      actor,
      action: "encryption.migrate",
      table: "bank_accounts",
      details: { ...result, keyVersion: current.version, completed: true },
      request,
    });
    return result;
  } catch (error) {
    // The batches already committed stay; the log says how far the run got.
    await writeAudit(db, {
      actor,
      action: "encryption.migrate",
      table: "bank_accounts",
      details: {
        completed: false,
        bankValues: bank,
        ssnValues: ssn,
        mfaSecrets: mfa,
        keyVersion: current.version,
        error: error instanceof Error ? error.message.slice(0, 300) : "unknown error",
      },
      request,
    }).catch(() => undefined);
    throw error;
  }
}
