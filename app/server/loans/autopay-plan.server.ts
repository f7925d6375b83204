import { and, eq, isNotNull, isNull, ne, sql } from "drizzle-orm";
import { autopayAmountCents, autopayDebitDay, nextAutopayInstallment, paidTowardSchedule, unpaidThroughCents } from "~/domain/autopay";
import { payoffQuote, replayLedger, type InstallmentStatus, type LedgerState } from "~/domain/loan-servicing";
import type { AutopayAmountKind } from "~/domain/servicing-enums";
import type { DbOrTx } from "~/server/platform/db/client.server";
import { loanPayments } from "~/server/platform/db/schema.server";
import { ledgerRows, termsOf, type LoanRow } from "./ledger.server";

/**
 * The next autopay debit of a loan as its ledger stands today: which installment, the banking day it
 * settles and its amount (autopay.ts's rules over the replayed ledger, the payoff on the debit day and
 * the loan's other pending debits). The services, the job and the page ask here; the caller holds the
 * loan's lock when it acts on the answer.
 */

export type AutopayTermsRow = { amountKind: AutopayAmountKind; fixedAmountCents: number | null; daysBeforeDue: number };

export type PlannedDebit = { installment: InstallmentStatus; debitDay: string; amountCents: number };

export type AutopayPlan = { state: LedgerState; target: InstallmentStatus | null; debit: PlannedDebit | null };

/** The sum of the loan's pending debits, leaving out `exceptId` (one query). */
export async function pendingDebitCents(tx: DbOrTx, loanId: string, exceptId: string | null = null): Promise<number> {
  const conditions = [eq(loanPayments.loanId, loanId), eq(loanPayments.status, "pending")];
  if (exceptId) conditions.push(ne(loanPayments.id, exceptId));
  const [row] = await tx
    .select({ cents: sql<string>`coalesce(sum(${loanPayments.amountCents}), 0)::text` })
    .from(loanPayments)
    .where(and(...conditions));
  return Number(row?.cents ?? 0);
}

/** The installments of the loan that already had an autopay debit (any status): never a second one (one query). */
export async function installmentsWithAutopayDebit(tx: DbOrTx, loanId: string): Promise<Set<number>> {
  const rows = await tx
    .select({ n: loanPayments.installmentNumber })
    .from(loanPayments)
    .where(and(eq(loanPayments.loanId, loanId), isNotNull(loanPayments.installmentNumber), isNull(loanPayments.retryOf)));
  return new Set(rows.map((r) => r.n).filter((n): n is number => n !== null));
}

/** Plans the debit for `target` (or the next installment autopay pays); debit null when nothing is due. */
export async function planAutopayDebit(
  tx: DbOrTx,
  loan: LoanRow,
  terms: AutopayTermsRow,
  today: string,
  options: { target?: number; exceptPaymentId?: string | null; taken?: ReadonlySet<number> } = {},
): Promise<AutopayPlan> {
  const loanTerms = termsOf(loan);
  const rows = await ledgerRows(loan.id, tx);
  const state = replayLedger(loanTerms, rows.payments, rows.fees, today);
  const target =
    options.target === undefined ? nextAutopayInstallment(state.installments, terms.daysBeforeDue, today, options.taken) : (state.installments.find((row) => row.number === options.target && !row.paid) ?? null);
  if (!target) return { state, target: null, debit: null };
  const debitDay = autopayDebitDay(target.dueDate, terms.daysBeforeDue);
  const pendingCents = await pendingDebitCents(tx, loan.id, options.exceptPaymentId ?? null);
  const amountCents = autopayAmountCents({
    kind: terms.amountKind,
    fixedAmountCents: terms.fixedAmountCents,
    installmentPaymentCents: target.paymentCents,
    unpaidThroughCents: unpaidThroughCents(state.installments, target.number, paidTowardSchedule(state.allocations)),
    feesDueCents: state.feesDueCents,
    pendingCents,
    payoffCents: payoffQuote(loanTerms, rows.payments, rows.fees, debitDay).totalCents,
  });
  return { state, target, debit: amountCents > 0 ? { installment: target, debitDay, amountCents } : null };
}
