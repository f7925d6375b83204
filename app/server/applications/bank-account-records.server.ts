import { and, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { getDb, type DbOrTx } from "~/server/platform/db/client.server";
import { bankAccounts } from "~/server/platform/db/schema.server";

/**
 * The bank accounts people gave with their applications (or later, for a loan's payments), as other
 * modules read them: masked facts for pages and e-mails; the sealed numbers only for an ACH file.
 */
const MASKED_COLUMNS = {
  id: bankAccounts.id,
  userId: bankAccounts.userId,
  applicationId: bankAccounts.applicationId,
  holder: bankAccounts.accountHolderName,
  bankName: bankAccounts.bankName,
  accountType: bankAccounts.accountType,
  last4: bankAccounts.accountNumberLast4,
  isPrimary: bankAccounts.isPrimary,
};

export type BankAccountRecord = { [K in keyof typeof MASKED_COLUMNS]: (typeof MASKED_COLUMNS)[K]["_"]["data"] };

/** The primary account first, then the newest. */
const PRIMARY_THEN_NEWEST = [desc(bankAccounts.isPrimary), desc(bankAccounts.createdAt)];

/** The accounts with these ids, masked, in one query (a page passes its rows' ids, never one per row). */
export async function bankAccountsByIds(ids: readonly (string | null)[], db: DbOrTx = getDb()): Promise<Map<string, BankAccountRecord>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db.select(MASKED_COLUMNS).from(bankAccounts).where(inArray(bankAccounts.id, wanted));
  return new Map(rows.map((row) => [row.id, row]));
}

/** The accounts with these ids with their sealed numbers (ciphertext), for a NACHA file's entries. */
export async function sealedBankAccountsByIds(ids: readonly (string | null)[], db: DbOrTx = getDb()) {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map<string, BankAccountRecord & { accountNumber: string; routingNumber: string }>();
  const rows = await db
    .select({ ...MASKED_COLUMNS, accountNumber: bankAccounts.accountNumber, routingNumber: bankAccounts.routingNumber })
    .from(bankAccounts)
    .where(inArray(bankAccounts.id, wanted));
  return new Map(rows.map((row) => [row.id, row]));
}

/** A person's accounts, the primary first, then the newest. */
export async function bankAccountsOfUser(userId: string, db: DbOrTx = getDb()): Promise<BankAccountRecord[]> {
  return db
    .select(MASKED_COLUMNS)
    .from(bankAccounts)
    .where(eq(bankAccounts.userId, userId))
    .orderBy(...PRIMARY_THEN_NEWEST);
}

/** The account a person gave with an application (the primary one first, then the newest), or null. */
export async function applicationBankAccount(applicationId: string, userId: string, db: DbOrTx = getDb()): Promise<BankAccountRecord | null> {
  const [row] = await db
    .select(MASKED_COLUMNS)
    .from(bankAccounts)
    .where(and(eq(bankAccounts.applicationId, applicationId), eq(bankAccounts.userId, userId)))
    .orderBy(...PRIMARY_THEN_NEWEST)
    .limit(1);
  return row ?? null;
}

/** A further account of a person's on an application (not primary), its numbers already sealed. */
export async function addBankAccount(
  tx: DbOrTx,
  account: { userId: string; applicationId: string; holder: string; bankName: string; accountType: BankAccountRecord["accountType"]; createdAt: Date } & SealedNumbers,
): Promise<{ id: string }> {
  const { holder, ...rest } = account;
  const [row] = await tx
    .insert(bankAccounts)
    .values({ ...rest, accountHolderName: holder, isPrimary: false })
    .returning({ id: bankAccounts.id });
  return row!;
}

type SealedNumbers = Pick<typeof bankAccounts.$inferInsert, "accountNumber" | "routingNumber" | "accountNumberLast4" | "routingNumberLast2" | "accountLast4Index">;

/**
 * SQL for "the id of this account when it is this person's" (no row otherwise): a statement that
 * writes only for a person's own account (a debit from it) keeps the check and the write in one.
 */
export function ownBankAccountIdSql(bankAccountId: string, userId: string): SQL {
  return sql`select ${bankAccounts.id} from ${bankAccounts} where ${bankAccounts.id} = ${bankAccountId} and ${bankAccounts.userId} = ${userId}`;
}
