import { and, desc, eq, inArray } from "drizzle-orm";
import { getDb, type DbOrTx } from "~/server/platform/db/client.server";
import { approvedLoans } from "~/server/platform/db/schema.server";
import type { LoanRow } from "./ledger.server";

/** A borrower's loans in these stored statuses, newest approval first, with the figures the dashboard shows. */
export async function loansOfBorrower(userId: string, statuses: readonly LoanRow["status"][], db: DbOrTx = getDb()) {
  return db
    .select({
      id: approvedLoans.id,
      status: approvedLoans.status,
      amountCents: approvedLoans.amountCents,
      balanceCents: approvedLoans.balanceCents,
      paymentCents: approvedLoans.paymentCents,
      noteRateMilli: approvedLoans.noteRateMilli,
      termMonths: approvedLoans.termMonths,
      approvalDate: approvedLoans.approvalDate,
      applicationId: approvedLoans.applicationId,
      offerId: approvedLoans.offerId,
    })
    .from(approvedLoans)
    .where(and(eq(approvedLoans.userId, userId), inArray(approvedLoans.status, [...statuses])))
    .orderBy(desc(approvedLoans.approvalDate));
}

/** The loan terms of these applications' loans (an application has at most one), in one query. */
export async function loanTermsByApplication(applicationIds: readonly string[], db: DbOrTx = getDb()) {
  if (applicationIds.length === 0) return new Map<string, LoanTerms>();
  const rows = await db
    .select({
      applicationId: approvedLoans.applicationId,
      amountCents: approvedLoans.amountCents,
      noteRateMilli: approvedLoans.noteRateMilli,
      termMonths: approvedLoans.termMonths,
      paymentCents: approvedLoans.paymentCents,
    })
    .from(approvedLoans)
    .where(inArray(approvedLoans.applicationId, [...new Set(applicationIds)]));
  return new Map<string, LoanTerms>(rows.map(({ applicationId, ...terms }) => [applicationId, terms]));
}

type LoanTerms = Pick<LoanRow, "amountCents" | "noteRateMilli" | "termMonths" | "paymentCents">;
