/**
 * Delinquency buckets: how far behind a loan is, by the days since its oldest unpaid installment fell
 * due (the ledger's daysPastDue; approved_loans.next_due_date keeps that installment's day, so SQL can
 * bucket a loan without replaying it). Pure, no I/O, safe in the browser.
 */

export const DELINQUENCY_BUCKETS = [
  { key: "current", label: "Current", minDays: 0, maxDays: 0 },
  { key: "1-29", label: "1–29", minDays: 1, maxDays: 29 },
  { key: "30-59", label: "30–59", minDays: 30, maxDays: 59 },
  { key: "60-89", label: "60–89", minDays: 60, maxDays: 89 },
  { key: "90-119", label: "90–119", minDays: 90, maxDays: 119 },
  { key: "120+", label: "120+", minDays: 120, maxDays: null },
] as const;

export type DelinquencyBucket = (typeof DELINQUENCY_BUCKETS)[number]["key"];
export const DELINQUENCY_BUCKET_KEYS = DELINQUENCY_BUCKETS.map((b) => b.key) as [DelinquencyBucket, ...DelinquencyBucket[]];

/** The bucket of a loan `daysPastDue` days behind (0 or less: Current). */
export function delinquencyBucket(daysPastDue: number): DelinquencyBucket {
  for (let i = DELINQUENCY_BUCKETS.length - 1; i >= 0; i--) {
    const bucket = DELINQUENCY_BUCKETS[i]!;
    if (daysPastDue >= bucket.minDays) return bucket.key;
  }
  return "current";
}

export function delinquencyBucketLabel(key: string): string {
  return DELINQUENCY_BUCKETS.find((b) => b.key === key)?.label ?? key;
}

/** Days past due at which a loan is proposed for charge-off, unless configured otherwise (CHARGE_OFF_DAYS). */
export const DEFAULT_CHARGE_OFF_DAYS = 120;

/** The collections notices: sent once per installment when it is this many days past due. */
export const COLLECTIONS_NOTICE_DAYS = [15, 30, 60] as const;
