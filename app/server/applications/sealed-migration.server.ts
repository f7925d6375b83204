import { and, asc, count, eq, gt, isNotNull, ne, or } from "drizzle-orm";
import { ENCRYPTION_PURPOSES } from "~/server/platform/crypto/encryption-purposes.server";
import { BLIND_INDEX_PURPOSES, lastFourToken, needsReindex } from "~/server/platform/crypto/blind-index.server";
import { forEachBatch, lastDigits, migrateValue, plainFor, storeMigrated, type MigrationRun, type Tally } from "~/server/platform/crypto/value-migration.server";
import type { Db } from "~/server/platform/db/client.server";
import { bankAccounts, loanApplications } from "~/server/platform/db/schema.server";

/**
 * The applications' sealed values in 'Encrypt Existing Bank Data' (staff/encryption-migration runs the
 * whole): bank accounts' account and routing numbers and applications' SSNs, encrypted when still
 * plain text, re-encrypted under the current key, and their last-4 blind indexes (re)computed.
 */

/** The two encrypted values of a bank_accounts row, each with the plaintext digits kept for the masked display. */
const BANK_NUMBERS = [
  { column: "accountNumber", purpose: ENCRYPTION_PURPOSES.accountNumber, lastColumn: "accountNumberLast4", lastCount: 4 },
  { column: "routingNumber", purpose: ENCRYPTION_PURPOSES.routingNumber, lastColumn: "routingNumberLast2", lastCount: 2 },
] as const;

/** Bank accounts: account and routing numbers, with their masked digits and the account number's blind index. */
export async function migrateBankAccountValues(db: Db, run: MigrationRun, bank: Tally, indexes: { indexed: number; failed: number }): Promise<void> {
  const { keys, batchSize, notCurrent, stale } = run;
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
}

/** Applications: the SSN (null or empty means none was given), and its blind index. */
export async function migrateSsnValues(db: Db, run: MigrationRun, ssn: Tally, indexes: { indexed: number; failed: number }): Promise<void> {
  const { keys, batchSize, notCurrent, stale } = run;
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
}

/** How many sealed values the applications hold: two a bank account, one an application with an SSN. */
export async function sealedApplicationValueCount(db: Db): Promise<number> {
  const [bankRows] = await db.select({ n: count() }).from(bankAccounts);
  const [ssnRows] = await db
    .select({ n: count() })
    .from(loanApplications)
    .where(and(isNotNull(loanApplications.ssnEncrypted), ne(loanApplications.ssnEncrypted, "")));
  return Number(bankRows?.n ?? 0) * 2 + Number(ssnRows?.n ?? 0);
}
