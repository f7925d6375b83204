import { addDays } from "./dates";
import { DELINQUENCY_BUCKETS, DELINQUENCY_BUCKET_KEYS, type DelinquencyBucket } from "./delinquency";

/**
 * The delinquency buckets as ranges of approved_loans.next_due_date (the first unpaid installment's
 * day), so SQL reads a bucket as one index range instead of replaying loans. A loan `d` days past due on
 * `asOf` has next_due_date = asOf − d; the bucket [min, max] days is next_due_date in
 * [asOf − max, asOf − min] (Current: next_due_date ≥ asOf, no installment past its day). A loan with no
 * due date (paid, cancelled, charged off, settled) is in no bucket. Pure, safe in the browser.
 */

export type DueDateRange = {
  /** The earliest next_due_date in the bucket (inclusive); null: no lower bound (120+). */
  from: string | null;
  /** The latest next_due_date in the bucket (inclusive); null: no upper bound (Current). */
  through: string | null;
};

export function bucketDueDates(bucket: DelinquencyBucket, asOf: string): DueDateRange {
  const b = DELINQUENCY_BUCKETS.find((x) => x.key === bucket)!;
  return {
    from: b.maxDays === null ? null : addDays(asOf, -b.maxDays),
    through: b.minDays === 0 ? null : addDays(asOf, -b.minDays),
  };
}

/** A ?bucket= value: the bucket, null when absent, or a refusal naming the value. */
export function readBucketParam(value: string | null): { bucket: DelinquencyBucket | null; notice: string | null } {
  if (value === null || value === "") return { bucket: null, notice: null };
  if ((DELINQUENCY_BUCKET_KEYS as readonly string[]).includes(value)) return { bucket: value as DelinquencyBucket, notice: null };
  const shown = value.replace(/[^\x20-\x7e]/g, "").slice(0, 20);
  return { bucket: null, notice: `There is no days-past-due range "${shown}": showing every range.` };
}

/** The bucket one step worse (null for 120+): the roll rate counts loans that moved there in a month. */
export function nextWorseBucket(bucket: DelinquencyBucket): DelinquencyBucket | null {
  const i = DELINQUENCY_BUCKET_KEYS.indexOf(bucket);
  return DELINQUENCY_BUCKET_KEYS[i + 1] ?? null;
}

/**
 * Where a loan of one month-end snapshot went by the next: a bucket, or out of the active book. A loan
 * in no later snapshot is named by its status then (paid off, charged off, settled), else "closed".
 */
export const ROLL_EXITS = ["paid_off", "charged_off", "settled", "closed"] as const;
export type RollExit = (typeof ROLL_EXITS)[number];
export type RollTarget = DelinquencyBucket | RollExit;

/** The last day of the month before the one `day` is in ('yyyy-MM-dd'). */
export function previousMonthEnd(day: string): string {
  return addDays(`${day.slice(0, 7)}-01`, -1);
}

/** The month ends before `day`, newest first, `count` of them. */
export function monthEndsBefore(day: string, count: number): string[] {
  const out: string[] = [];
  let end = previousMonthEnd(day);
  for (let i = 0; i < count; i++) {
    out.push(end);
    end = previousMonthEnd(end);
  }
  return out;
}

/** The share `part / whole` as a percentage with one decimal ("12.5 %"), or "—" when the whole is 0. */
export function formatShare(part: number, whole: number): string {
  if (whole <= 0) return "—";
  return `${(Math.round((part / whole) * 1000) / 10).toFixed(1)} %`;
}
