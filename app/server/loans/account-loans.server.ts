import { and, eq, exists, inArray, ne, not, or, sql } from "drizzle-orm";
import type { DbOrTx } from "~/server/platform/db/client.server";
import { approvedLoans, bankAccounts, loanPaymentAccounts } from "~/server/platform/db/schema.server";
import type { LoanRow } from "./ledger.server";

/** Loans in these statuses still take debits or await their proceeds: their payment account is in use. */
const LIVE_LOAN_STATUSES: readonly LoanRow["status"][] = ["awaiting_funding", "approved", "active"];

/**
 * The live loans whose payment account is `bankAccountId` (the current row of loan_payment_accounts,
 * or, before any change, the account given with the loan's application, as currentPaymentAccount
 * reads it), of the account's owner; `except` leaves one loan out. One query, oldest loan first.
 */
export async function liveLoansUsingAccount(tx: DbOrTx, bankAccountId: string, except?: string): Promise<LoanRow[]> {
  const current = (loanId: typeof approvedLoans.id) =>
    tx
      .select({ one: sql`1` })
      .from(loanPaymentAccounts)
      .where(and(eq(loanPaymentAccounts.loanId, loanId), eq(loanPaymentAccounts.isCurrent, true)));
  const rows = await tx
    .select({ loan: approvedLoans })
    .from(approvedLoans)
    .innerJoin(bankAccounts, and(eq(bankAccounts.id, bankAccountId), eq(bankAccounts.userId, approvedLoans.userId)))
    .where(
      and(
        inArray(approvedLoans.status, [...LIVE_LOAN_STATUSES]),
        except ? ne(approvedLoans.id, except) : undefined,
        or(
          exists(
            tx
              .select({ one: sql`1` })
              .from(loanPaymentAccounts)
              .where(and(eq(loanPaymentAccounts.loanId, approvedLoans.id), eq(loanPaymentAccounts.isCurrent, true), eq(loanPaymentAccounts.bankAccountId, bankAccountId))),
          ),
          and(eq(bankAccounts.applicationId, approvedLoans.applicationId), not(exists(current(approvedLoans.id)))),
        ),
      ),
    )
    .orderBy(approvedLoans.createdAt, approvedLoans.id);
  return rows.map((r) => r.loan);
}
