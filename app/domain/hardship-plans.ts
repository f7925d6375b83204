import type { PaymentRow } from "./loan-schedule";
import { MODIFICATION_KIND_LABELS, type ScheduleChange, type ScheduleChangeOffer } from "./loan-modifications";
import { formatMoney } from "./money";

/**
 * Hardship plans as the borrower and staff read them: a plan's sentence, and its effect on the total
 * cost (what is left to pay and of it how much is interest, before and after). Pure, no I/O, safe in
 * the browser. The schedules themselves come from app/domain/loan-schedule.ts (projectSchedule), the
 * one rule the ledger services.
 */

/** What is left of a schedule from an installment on: payments, the interest in them, how many, the last due date. */
export type ScheduleTotals = { paymentsCents: number; interestCents: number; installments: number; lastDueDate: string | null };

export type PlanTotals = { before: ScheduleTotals; after: ScheduleTotals };

/** The rows from installment `from` on (the ones a plan starting there can change). */
export function remainingRows(schedule: readonly PaymentRow[], from: number): PaymentRow[] {
  return schedule.filter((row) => row.number >= from);
}

export function scheduleTotals(rows: readonly PaymentRow[]): ScheduleTotals {
  return {
    paymentsCents: rows.reduce((sum, r) => sum + r.paymentCents, 0),
    interestCents: rows.reduce((sum, r) => sum + r.interestCents, 0),
    installments: rows.length,
    lastDueDate: rows.at(-1)?.dueDate ?? null,
  };
}

/** "+$12.34", "−$5.00" or "$0.00": after minus before. */
export function signedDifference(beforeCents: number, afterCents: number): string {
  const d = afterCents - beforeCents;
  return d === 0 ? formatMoney(0) : `${d > 0 ? "+" : "−"}${formatMoney(Math.abs(d))}`;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function ordinal(n: number): string {
  const s = n % 100 >= 11 && n % 100 <= 13 ? "th" : n % 10 === 1 ? "st" : n % 10 === 2 ? "nd" : n % 10 === 3 ? "rd" : "th";
  return `${n}${s}`;
}

/** One sentence for a plan, as offered or signed (a payment plan's later payment when known). */
export function planSentence(plan: ScheduleChangeOffer | ScheduleChange): string {
  switch (plan.kind) {
    case "deferment": {
      const last = plan.fromInstallment + plan.count - 1;
      const which = plan.count === 1 ? `installment #${plan.fromInstallment}` : `installments #${plan.fromInstallment} to #${last}`;
      return `${MODIFICATION_KIND_LABELS.deferment}: ${which} (${plural(plan.count, "payment", "payments")}) move to the end of the schedule; every later installment falls due ${plural(plan.count, "month", "months")} later. Interest keeps accruing.`;
    }
    case "payment_plan": {
      const later = "laterPaymentCents" in plan ? ` then ${formatMoney(plan.laterPaymentCents)} a month` : " then a higher payment that spreads the shortfall";
      return `${MODIFICATION_KIND_LABELS.payment_plan}: ${formatMoney(plan.reducedPaymentCents)} a month for ${plural(plan.months, "month", "months")} from installment #${plan.fromInstallment},${later} over the rest of the schedule.`;
    }
    case "due_date_change":
      return `${MODIFICATION_KIND_LABELS.due_date_change}: from installment #${plan.fromInstallment} on, payments fall due on the ${ordinal(plan.dueDay)} of each month (never earlier than before).`;
  }
}
