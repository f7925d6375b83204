import { and, eq, exists, inArray, isNull, or, sql } from "drizzle-orm";
import { UUID_PATTERN } from "~/domain/ids";
import type { AccountRestrictionKind } from "~/domain/servicing-enums";
import { ACCOUNT_RESTRICTION_MESSAGES } from "~/domain/validation/account-restriction";
import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";
import { getDb, type Db, type DbOrTx } from "~/server/platform/db/client.server";
import { bankAccountsByIds } from "~/server/applications/index.server";
import { approvedLoans, autopayAuthorizations, bankAccountRestrictions, loanFundings, loanPaymentAccounts, loanPayments } from "~/server/platform/db/schema.server";
import { AppError } from "~/server/platform/http/app-error.server";
import { lockLoan, type LoanRow } from "./ledger.server";

/**
 * Bank accounts no debit may come from after a return (decision 0093): unusable (closed, no or invalid
 * account) or blocked for debits (unauthorised or revoked). One live restriction per account; a
 * blocked account stays blocked when an "unusable" return follows, an unusable one becomes blocked when
 * an unauthorised return follows. Every debit path asks here: the ACH file, Make a Payment, autopay.
 */

export type AccountRestriction = { kind: AccountRestrictionKind; returnCode: string; since: string };

/** The live restrictions of these accounts, by account id (one query; none for an empty list). */
export async function accountRestrictions(bankAccountIds: readonly (string | null)[], db: DbOrTx = getDb()): Promise<Map<string, AccountRestriction>> {
  const ids = [...new Set(bankAccountIds.filter((id): id is string => id !== null))];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ bankAccountId: bankAccountRestrictions.bankAccountId, kind: bankAccountRestrictions.kind, returnCode: bankAccountRestrictions.returnCode, createdAt: bankAccountRestrictions.createdAt })
    .from(bankAccountRestrictions)
    .where(and(inArray(bankAccountRestrictions.bankAccountId, ids), isNull(bankAccountRestrictions.clearedAt)));
  return new Map(rows.map((r) => [r.bankAccountId, { kind: r.kind, returnCode: r.returnCode, since: r.createdAt.toISOString() }]));
}

/**
 * Restricts an account after a return (inside the caller's transaction): one upsert on the live row,
 * so two returns at once leave one restriction, the stronger kind kept.
 */
export async function restrictAccount(tx: DbOrTx, bankAccountId: string, kind: AccountRestrictionKind, returnCode: string, paymentId: string | null): Promise<void> {
  await tx.execute(sql`
    insert into ${bankAccountRestrictions} (bank_account_id, kind, return_code, payment_id)
    values (${bankAccountId}, ${kind}, ${returnCode}, ${paymentId})
    on conflict (bank_account_id) where cleared_at is null
    do update set kind = case when ${bankAccountRestrictions.kind} = 'blocked' then 'blocked' else excluded.kind end,
      return_code = case when ${bankAccountRestrictions.kind} = 'blocked' and excluded.kind <> 'blocked' then ${bankAccountRestrictions.returnCode} else excluded.return_code end,
      payment_id = case when ${bankAccountRestrictions.kind} = 'blocked' and excluded.kind <> 'blocked' then ${bankAccountRestrictions.paymentId} else excluded.payment_id end`);
}

/** Why a debit cannot come from a restricted account: one sentence for the ACH page, the borrower's forms and the job. */
export function restrictionReason(r: AccountRestriction): string {
  return r.kind === "blocked"
    ? `This bank account is blocked for debits: the bank returned a debit as not authorized (${r.returnCode}).`
    : `This bank account cannot be used: the bank returned a debit from it (${r.returnCode}). Add another account.`;
}

/**
 * Whether `bankAccountId` is an account of the loan's borrower that this loan uses or has used: the
 * account given with its application, a payment account chosen for it, one its debits, its funding
 * credit or its autopay came from.
 */
export async function loanUsesAccount(tx: DbOrTx, loan: Pick<LoanRow, "id" | "userId" | "applicationId">, bankAccountId: string): Promise<boolean> {
  const account = (await bankAccountsByIds([bankAccountId], tx)).get(bankAccountId);
  if (!account || account.userId !== loan.userId) return false;
  if (account.applicationId === loan.applicationId) return true;
  const uses = (table: typeof loanPaymentAccounts | typeof loanPayments | typeof loanFundings | typeof autopayAuthorizations) =>
    exists(tx.select({ one: sql`1` }).from(table).where(and(eq(table.loanId, loan.id), eq(table.bankAccountId, bankAccountId))));
  const [row] = await tx
    .select({ id: approvedLoans.id })
    .from(approvedLoans)
    .where(and(eq(approvedLoans.id, loan.id), or(uses(loanPaymentAccounts), uses(loanPayments), uses(loanFundings), uses(autopayAuthorizations))));
  return row !== undefined;
}

/**
 * Clear Restriction (staff, from a loan's page): the account may be debited again, for the reason
 * staff give (kept on the row). Only an account of this loan's borrower that this loan uses (any other
 * is as unknown as a made-up one: 404). The loan's row is locked first, then one conditional UPDATE …
 * WHERE cleared_at IS NULL, so two staff at once leave one clearing and the other is told (409). Audited.
 */
export async function clearAccountRestriction(loanId: string, bankAccountId: string, reason: string, { actor, request }: Caller, db: Db = getDb()): Promise<{ restrictionId: string }> {
  if (!UUID_PATTERN.test(loanId) || !UUID_PATTERN.test(bankAccountId)) throw new AppError("servicing", 404, ACCOUNT_RESTRICTION_MESSAGES.bankAccountId);
  const accountId = bankAccountId.toLowerCase();
  return db.transaction(async (tx) => {
    const loan = await lockLoan(tx, loanId.toLowerCase());
    if (!loan || !(await loanUsesAccount(tx, loan, accountId))) throw new AppError("servicing", 404, ACCOUNT_RESTRICTION_MESSAGES.bankAccountId);
    const [cleared] = await tx
      .update(bankAccountRestrictions)
      .set({ clearedAt: sql`now()`, clearedBy: actor.id, clearReason: reason })
      .where(and(eq(bankAccountRestrictions.bankAccountId, accountId), isNull(bankAccountRestrictions.clearedAt)))
      .returning({ id: bankAccountRestrictions.id, kind: bankAccountRestrictions.kind, returnCode: bankAccountRestrictions.returnCode });
    if (!cleared) {
      const [earlier] = await tx.select({ id: bankAccountRestrictions.id }).from(bankAccountRestrictions).where(eq(bankAccountRestrictions.bankAccountId, accountId)).limit(1);
      throw new AppError("servicing", 409, earlier ? ACCOUNT_RESTRICTION_MESSAGES.alreadyCleared : ACCOUNT_RESTRICTION_MESSAGES.notRestricted);
    }
    await writeAudit(tx, {
      actor,
      action: "bank_account.restriction_clear",
      table: "bank_account_restrictions",
      recordId: cleared.id,
      details: { loanId: loan.id, bankAccountId: accountId, kind: cleared.kind, returnCode: cleared.returnCode, reason },
      request,
    });
    return { restrictionId: cleared.id };
  });
}
