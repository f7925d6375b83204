import { and, eq, exists, inArray, ne, not, or, sql } from "drizzle-orm";
import { bankAccountsByIds } from "~/server/applications/index.server";
import type { DbOrTx } from "~/server/platform/db/client.server";
import { approvedLoans, loanPaymentAccounts } from "~/server/platform/db/schema.server";
import type { LoanRow } from "./ledger.server";

/** Loans in these statuses still take debits or await their proceeds: their payment account is in use. */
const LIVE_LOAN_STATUSES: readonly LoanRow["status"][] = ["awaiting_funding", "approved", "active"];

/**
 * The live loans of the account's owner whose payment account is `bankAccountId` (the current row of
 * loan_payment_accounts, or, before any change, the account given with the loan's application, as
 * currentPaymentAccount reads it); `except` leaves one loan out. Oldest loan first.
 */
export async function liveLoansUsingAccount(tx: DbOrTx, bankAccountId: string, except?: string): Promise<LoanRow[]> {
  const account = (await bankAccountsByIds([bankAccountId], tx)).get(bankAccountId);
  if (!account) return [];
  const currentRow = (accountId?: string) =>
    tx
      .select({ one: sql`1` })
      .from(loanPaymentAccounts)
      .where(and(eq(loanPaymentAccounts.loanId, approvedLoans.id), eq(loanPaymentAccounts.isCurrent, true), accountId ? eq(loanPaymentAccounts.bankAccountId, accountId) : undefined));
  return tx
    .select()
    .from(approvedLoans)
    .where(
      and(
        eq(approvedLoans.userId, account.userId),
        inArray(approvedLoans.status, [...LIVE_LOAN_STATUSES]),
        except ? ne(approvedLoans.id, except) : undefined,
        or(exists(currentRow(bankAccountId)), account.applicationId ? and(eq(approvedLoans.applicationId, account.applicationId), not(exists(currentRow()))) : undefined),
      ),
    )
    .orderBy(approvedLoans.createdAt, approvedLoans.id);
}
