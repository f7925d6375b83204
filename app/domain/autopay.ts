/**
 * Autopay's calendar and amounts, as pure rules (no I/O): the servicing job, the borrower's page and
 * the Set Up / Change / Cancel services ask here, so the day a debit is queued, the day it settles and
 * the last day it can still be stopped are the same everywhere. Days are 'yyyy-MM-dd' in UTC.
 *
 * - Debit day: the installment's due date, or the chosen 1–5 calendar days before it, moved back to the
 *   banking day before when it is not one (an ACH entry settles only on a banking day, and moving it
 *   forward could make the payment late).
 * - Queue day: AUTOPAY_NOTICE_DAYS calendar days before the debit day. The job queues the debit then, so
 *   a debit whose amount differs from the last one is told to the borrower at least ten days ahead
 *   (Reg E 12 CFR 1005.10(d)).
 * - Cancel cutoff: AUTOPAY_CANCEL_CUTOFF_BANKING_DAYS banking days before the debit day. Until then
 *   (and while the debit is in no ACH file) Cancel or Change Autopay stops a queued debit; after it the
 *   debit still goes, and the page says so.
 */

import { isBankingDay, nextBankingDay } from "./banking-days";
import { addDays } from "./dates";
import type { AutopayAmountKind } from "./servicing-enums";

/** Days before the debit day that the borrower is told a differing amount (and the job queues the debit). */
export const AUTOPAY_NOTICE_DAYS = 10;

/** Banking days before the debit day after which a queued debit can no longer be stopped from the page. */
export const AUTOPAY_CANCEL_CUTOFF_BANKING_DAYS = 3;

/** The banking day on or before `day`. */
export function bankingDayOnOrBefore(day: string): string {
  let out = day;
  while (!isBankingDay(out)) out = addDays(out, -1);
  return out;
}

/** The debit day of an installment due on `dueDate`, `daysBeforeDue` (0–5) calendar days early. */
export function autopayDebitDay(dueDate: string, daysBeforeDue: number): string {
  return bankingDayOnOrBefore(addDays(dueDate, -daysBeforeDue));
}

/** The day the job queues the debit settling on `debitDay`. */
export function autopayQueueDay(debitDay: string): string {
  return addDays(debitDay, -AUTOPAY_NOTICE_DAYS);
}

/** The last day a queued debit settling on `debitDay` can be stopped by Cancel or Change Autopay. */
export function autopayCancelCutoff(debitDay: string): string {
  let out = debitDay;
  for (let k = 0; k < AUTOPAY_CANCEL_CUTOFF_BANKING_DAYS; k++) {
    out = addDays(out, -1);
    while (!isBankingDay(out)) out = addDays(out, -1);
  }
  return out;
}

/** Whether Cancel or Change Autopay still stops a queued debit: before its cutoff and in no ACH file. */
export function canStopAutopayDebit(debitDay: string, today: string, inFile: boolean): boolean {
  return !inFile && today <= autopayCancelCutoff(debitDay);
}

export type AutopayInstallment = { number: number; dueDate: string; paid: boolean };

/**
 * The installment autopay pays next: the first unpaid one whose debit day is on or after the next
 * banking day (the earliest day a file made today can settle). One already overdue, or whose debit day
 * is today, is paid by hand: autopay never debits late. `taken`: installments that already had an
 * autopay debit (sent, settled, cancelled or returned): each installment gets one at most.
 */
export function nextAutopayInstallment<I extends AutopayInstallment>(installments: readonly I[], daysBeforeDue: number, today: string, taken: ReadonlySet<number> = new Set()): I | null {
  const earliest = nextBankingDay(today);
  return installments.find((row) => !row.paid && !taken.has(row.number) && autopayDebitDay(row.dueDate, daysBeforeDue) >= earliest) ?? null;
}

/**
 * The day the job next looks at an authorisation, after it has dealt with (queued or skipped)
 * installment `handled`: the queue day of the one after it, or null when there is none.
 */
export function queueDayAfter(installments: readonly AutopayInstallment[], handled: number, daysBeforeDue: number): string | null {
  const next = installments.find((row) => row.number > handled);
  return next ? autopayQueueDay(autopayDebitDay(next.dueDate, daysBeforeDue)) : null;
}

/**
 * The day the job should first look at a new authorisation: the queue day of the installment it will
 * pay, or today when that day has passed (the debit is then queued at once); null when none is left.
 */
export function firstQueueDay(installments: readonly AutopayInstallment[], daysBeforeDue: number, today: string, taken: ReadonlySet<number> = new Set()): string | null {
  const target = nextAutopayInstallment(installments, daysBeforeDue, today, taken);
  if (!target) return null;
  const day = autopayQueueDay(autopayDebitDay(target.dueDate, daysBeforeDue));
  return day < today ? today : day;
}

export type AutopayAmountInput = {
  kind: AutopayAmountKind;
  fixedAmountCents: number | null;
  /** The scheduled payment of the installment autopay pays. */
  installmentPaymentCents: number;
  /** What the schedule asks through this installment, less what the ledger has applied to the schedule. */
  unpaidThroughCents: number;
  /** Fees assessed and unpaid (a payment pays them first). */
  feesDueCents: number;
  /** Other debits of this loan still pending (an earlier autopay debit or a retry). */
  pendingCents: number;
  /** The payoff on the debit day. */
  payoffCents: number;
};

/**
 * The amount of an autopay debit: the installment due (its unpaid part and the fees the ledger takes
 * first, never more than one installment plus those fees, less what other pending debits will pay) or
 * the fixed amount; never more than the payoff on the debit day less those pending debits. Zero or less
 * means nothing is debited (the installment was paid by hand).
 */
export function autopayAmountCents(input: AutopayAmountInput): number {
  const payoffLeft = input.payoffCents - input.pendingCents;
  const wanted =
    input.kind === "fixed"
      ? (input.fixedAmountCents ?? 0)
      : Math.min(input.installmentPaymentCents + input.feesDueCents, input.unpaidThroughCents + input.feesDueCents - input.pendingCents);
  return Math.max(0, Math.min(wanted, payoffLeft));
}

/** What the schedule asks through installment `number` less what was applied to it (never below zero). */
export function unpaidThroughCents(installments: readonly { number: number; paymentCents: number }[], number: number, paidTowardScheduleCents: number): number {
  const through = installments.filter((row) => row.number <= number).reduce((sum, row) => sum + row.paymentCents, 0);
  return Math.max(0, through - paidTowardScheduleCents);
}

/** What posted payments applied to the schedule (interest and principal, not fees or excess). */
export function paidTowardSchedule(allocations: readonly { interestCents: number; principalCents: number }[]): number {
  return allocations.reduce((sum, a) => sum + a.interestCents + a.principalCents, 0);
}
