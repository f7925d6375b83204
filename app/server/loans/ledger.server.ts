import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { replayLedger, type AssessedFee, type LedgerState, type LoanTerms, type PostedPayment } from "~/domain/loan-servicing";
import { parseRateCaps, parseScheduleChanges } from "~/domain/loan-modifications";
import { todayUtc } from "~/domain/dates";
import { getDb, type DbOrTx } from "~/server/platform/db/client.server";
import { approvedLoans, loanFees, loanPayments } from "~/server/platform/db/schema.server";

/**
 * Loading a loan's ledger: its exact terms, the Posted payments and the assessed fees,
 * replayed by app/domain/loan-servicing.ts. Nothing derived is stored except two values lists filter
 * on (approved_loans.next_due_date and the status Paid Off), which refreshLoan keeps in the same
 * transaction as every change to the rows they come from.
 */

export type LoanRow = typeof approvedLoans.$inferSelect;

/** The later of two optional days ('yyyy-MM-dd' compares as text), null when neither is set. */
function latestDay(a: string | null, b: string | null): string | null {
  return a && b ? (a > b ? a : b) : (a ?? b);
}

/**
 * The loan's terms; interest from its settlement, never before the day its agreement's figures assume;
 * the hardship plans signed, the rate caps in force, the charge-off and settlement days.
 */
export function termsOf(loan: LoanRow): LoanTerms {
  return {
    amountCents: loan.amountCents,
    noteRateMilli: loan.noteRateMilli,
    termMonths: loan.termMonths,
    startDate: loan.startDate,
    interestFrom: latestDay(loan.expectedFundingDate, loan.fundedOn),
    paymentCents: loan.paymentCents,
    changes: parseScheduleChanges(loan.scheduleChanges),
    rateCaps: parseRateCaps(loan.rateCaps),
    chargedOffOn: loan.chargedOffOn,
    settledOn: loan.settledOn,
  };
}

/** The rows the ledger is replayed from: posted payments and assessed fees (a waived fee is not owed). */
export async function ledgerRows(loanId: string, db: DbOrTx = getDb()): Promise<{ payments: PostedPayment[]; fees: AssessedFee[] }> {
  const payments = await db
    .select({ id: loanPayments.id, receivedOn: loanPayments.receivedOn, amountCents: loanPayments.amountCents, recovery: loanPayments.recovery })
    .from(loanPayments)
    .where(and(eq(loanPayments.loanId, loanId), eq(loanPayments.status, "posted")))
    .orderBy(asc(loanPayments.receivedOn), asc(loanPayments.createdAt), asc(loanPayments.id));
  const fees = await db
    .select({ id: loanFees.id, assessedOn: loanFees.assessedOn, amountCents: loanFees.amountCents, installmentNumber: loanFees.installmentNumber })
    .from(loanFees)
    .where(and(eq(loanFees.loanId, loanId), isNull(loanFees.waivedAt)))
    .orderBy(asc(loanFees.assessedOn), asc(loanFees.id));
  return { payments: payments.map((p) => ({ id: p.id, receivedOn: p.receivedOn!, amountCents: p.amountCents, recovery: p.recovery })), fees };
}

export type LoanLedger = { loan: LoanRow; terms: LoanTerms; state: LedgerState; payments: PostedPayment[]; fees: AssessedFee[] };

/** The loan and its ledger on `asOf` (default today, UTC); null when no such loan. The caller checks who may see it. */
export async function loadLedger(loanId: string, db: DbOrTx = getDb(), asOf: string = todayUtc()): Promise<LoanLedger | null> {
  const [loan] = await db.select().from(approvedLoans).where(eq(approvedLoans.id, loanId)).limit(1);
  if (!loan) return null;
  const terms = termsOf(loan);
  const rows = await ledgerRows(loanId, db);
  return { loan, terms, state: replayLedger(terms, rows.payments, rows.fees, asOf), ...rows };
}

/** Locks the loan's row for the rest of the transaction: changes to one loan's ledger happen one at a time. */
export async function lockLoan(tx: DbOrTx, loanId: string): Promise<LoanRow | null> {
  const [loan] = await tx.select().from(approvedLoans).where(eq(approvedLoans.id, loanId)).for("update").limit(1);
  return loan ?? null;
}

/**
 * Re-derives the loan's stored summary from its ledger, inside the caller's transaction (after the
 * change, with the loan locked): the principal balance, the next due date, and Paid Off (with the
 * time) when the ledger is paid in full, or back to active when a reversal reopened it. A charged-off
 * or settled loan keeps its status (a recovery that pays everything does not make it Paid Off).
 */
export async function refreshLoan(tx: DbOrTx, loan: LoanRow, asOf: string = todayUtc()): Promise<LedgerState> {
  const terms = termsOf(loan);
  const rows = await ledgerRows(loan.id, tx);
  const state = replayLedger(terms, rows.payments, rows.fees, asOf);
  const closedOut = loan.status === "charged_off" || loan.status === "settled";
  const paidOff = !closedOut && state.status === "paid_in_full";
  await tx
    .update(approvedLoans)
    .set({
      balanceCents: state.principalCents,
      nextDueDate: state.nextInstallment?.dueDate ?? null,
      status: closedOut ? loan.status : paidOff ? "paid_off" : loan.status === "paid_off" ? "active" : loan.status,
      paidOffAt: closedOut ? loan.paidOffAt : paidOff ? (loan.paidOffAt ?? sql`now()`) : null,
      // A changed ledger may owe something new today (a returned payment): the servicing job looks again.
      servicedOn: null,
      updatedAt: sql`now()`,
    })
    .where(eq(approvedLoans.id, loan.id));
  return state;
}
