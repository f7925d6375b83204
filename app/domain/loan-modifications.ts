import { z } from "zod";
import { labelledEnum } from "./labelled-enum";

/**
 * Hardship plans as changes to a loan's Payment Schedule, and the rate caps that protect a borrower
 * (Servicemembers Civil Relief Act). Pure, no I/O, safe in the browser. The changes a borrower signed
 * are stored on the loan (approved_loans.schedule_changes, in the order signed) and app/domain/loan-schedule.ts
 * projects the one schedule from the terms and these changes, so the modification the borrower signs and
 * the ledger that services it read the same rows.
 *
 * Installments are numbered by position in the schedule in force when the change is signed (1-based):
 * - Deferment: installments `fromInstallment` … +count−1 move to the end of the schedule. Every installment
 *   from `fromInstallment` on falls due `count` months later, so the term grows by `count` months;
 *   interest keeps accruing, and the last payment absorbs it.
 * - Payment Plan: installments `fromInstallment` … +months−1 are `reducedPaymentCents`; every later
 *   installment but the last is the smallest level amount that then repays the loan (the shortfall
 *   spread over the rest), the last pays what is left.
 * - Change Due Date: from `fromInstallment` on, installments fall due on day `dueDay` of the month: the
 *   first such day on or after that installment's old due date, then monthly (never earlier than before).
 */

export const { values: MODIFICATION_KINDS, labels: MODIFICATION_KIND_LABELS } = labelledEnum({
  deferment: "Deferment",
  payment_plan: "Payment Plan",
  due_date_change: "Change Due Date",
});
export type ModificationKind = (typeof MODIFICATION_KINDS)[number];

export const MODIFICATION_LIMITS = {
  defermentMaxInstallments: 3,
  /** Deferments signed in any 12 months. */
  defermentsPerYear: 2,
  paymentPlanMaxMonths: 6,
  dueDayMin: 1,
  dueDayMax: 28,
  /** Due-date changes signed in any 12 months. */
  dueDateChangesPerYear: 1,
} as const;

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const installment = z.number().int().min(1).max(1200);

const defermentSchema = z.object({ kind: z.literal("deferment"), signedOn: day, fromInstallment: installment, count: z.number().int().min(1).max(MODIFICATION_LIMITS.defermentMaxInstallments) }).strict();
const paymentPlanSchema = z
  .object({
    kind: z.literal("payment_plan"),
    signedOn: day,
    fromInstallment: installment,
    months: z.number().int().min(1).max(MODIFICATION_LIMITS.paymentPlanMaxMonths),
    reducedPaymentCents: z.number().int().min(0).max(100_000_000_00),
    /**
     * Every installment after the reduced months but the last: the level amount that then repays the
     * loan, worked out when the plan is made (planLaterPaymentCents) and kept, so the schedule signed is the
     * schedule serviced whatever changes later (a rate cap lowers only the last payment).
     */
    laterPaymentCents: z.number().int().min(0).max(100_000_000_00),
  })
  .strict();
const dueDateChangeSchema = z
  .object({ kind: z.literal("due_date_change"), signedOn: day, fromInstallment: installment, dueDay: z.number().int().min(MODIFICATION_LIMITS.dueDayMin).max(MODIFICATION_LIMITS.dueDayMax) })
  .strict();

export const scheduleChangeSchema = z.discriminatedUnion("kind", [defermentSchema, paymentPlanSchema, dueDateChangeSchema]);
export type ScheduleChange = z.infer<typeof scheduleChangeSchema>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** A plan as staff offer it: the signing day is added when the borrower signs, a payment plan's later payment is worked out (withLaterPayment). */
export type ScheduleChangeOffer = DistributiveOmit<ScheduleChange, "signedOn" | "laterPaymentCents">;

/**
 * A period in which the loan's interest may not exceed `rateMilli` (SCRA: 6 % from the start of military
 * service, applied back to that day, to its end; `through` null while service goes on). Days inclusive.
 */
export const rateCapSchema = z
  .object({ from: day, through: day.nullable(), rateMilli: z.number().int().min(0).max(100_000) })
  .strict()
  .refine((cap) => cap.through === null || cap.through >= cap.from, "a rate cap ends on or after it starts");
export type RateCap = z.infer<typeof rateCapSchema>;

/** The SCRA ceiling: 6 % a year, in thousandths of a percent. */
export const SCRA_RATE_CAP_MILLI = 6000;

export class ScheduleChangesUnreadable extends Error {
  constructor(detail: string) {
    super(`schedule changes: ${detail}`);
    this.name = "ScheduleChangesUnreadable";
  }
}

/** Stored changes back as types; throws on anything else (a loan is never serviced by a guess). */
export function parseScheduleChanges(value: unknown): ScheduleChange[] {
  const parsed = z.array(scheduleChangeSchema).safeParse(value ?? []);
  if (!parsed.success) throw new ScheduleChangesUnreadable(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
  return parsed.data;
}

/** Stored rate caps back as types; throws on anything else. */
export function parseRateCaps(value: unknown): RateCap[] {
  const parsed = z.array(rateCapSchema).safeParse(value ?? []);
  if (!parsed.success) throw new ScheduleChangesUnreadable(parsed.error.issues.map((i) => `rateCaps.${i.path.join(".")}: ${i.message}`).join("; "));
  return parsed.data;
}

/**
 * The installment numbers an active plan covers (no late fee is assessed on them): a deferment's moved
 * installments, a payment plan's reduced months, a due-date change's first moved installment. Numbers
 * are positions in the schedule now in force; a later change that shifts positions keeps earlier cover
 * on the installments it moved.
 */
export function installmentsCoveredByPlans(changes: readonly ScheduleChange[]): Set<number> {
  const covered = new Set<number>();
  for (const change of changes) {
    const count = change.kind === "deferment" ? change.count : change.kind === "payment_plan" ? change.months : 1;
    for (let n = change.fromInstallment; n < change.fromInstallment + count; n++) covered.add(n);
  }
  return covered;
}

/** 'yyyy-MM-dd' one year before `date` (Feb 29 → Feb 28). */
function yearBefore(date: string): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const leap = (y - 1) % 4 === 0 && ((y - 1) % 100 !== 0 || (y - 1) % 400 === 0);
  const dd = m === 2 && d === 29 && !leap ? 28 : d;
  return `${String(y - 1).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(dd).padStart(2, "0")}`;
}

/**
 * Why a plan of `kind` cannot be signed on `today` given the changes already signed, or null when it can:
 * at most two deferments and one due-date change in any 12 months (a payment plan has no yearly limit,
 * but its months are capped).
 */
export function modificationLimitRefusal(changes: readonly ScheduleChange[], kind: ModificationKind, today: string): string | null {
  const since = yearBefore(today);
  const inYear = changes.filter((c) => c.kind === kind && c.signedOn > since).length;
  if (kind === "deferment" && inYear >= MODIFICATION_LIMITS.defermentsPerYear) return "This loan already had two deferments in the last 12 months.";
  if (kind === "due_date_change" && inYear >= MODIFICATION_LIMITS.dueDateChangesPerYear) return "This loan's due date was already changed in the last 12 months.";
  return null;
}
