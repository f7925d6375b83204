import { and, gte, isNotNull, lte, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { DELINQUENCY_BUCKET_KEYS, type DelinquencyBucket } from "~/domain/delinquency";
import { bucketDueDates } from "~/domain/delinquency-ranges";
import { approvedLoans } from "~/server/platform/db/schema.server";
import { keptCountsBetween } from "~/server/platform/db/row-counts.server";
import type { DbOrTx } from "~/server/platform/db/client.server";

/**
 * The staff loans list by delinquency bucket (decision 0096). A bucket is a range of next_due_date
 * over the loans not paid off, the population of the list's Late and Current: one range of
 * approved_loans_list_order_idx for the page, and for the counts a sum over row_counts'
 * 'approved_loans:due:<day>' keys (kept by triggers, one row per due day), so neither grows with loans.
 * A loan without a due date (cancelled, charged off, settled) is in no bucket.
 */

const DUE = "approved_loans:due:";

/** The loans of a bucket on `today`; `t` is approved_loans or a search's matches (same columns, another name). */
export function bucketWhere(bucket: DelinquencyBucket | null, today: string, t: { status: AnyPgColumn; nextDueDate: AnyPgColumn } = approvedLoans): SQL | undefined {
  if (!bucket) return undefined;
  const { from, through } = bucketDueDates(bucket, today);
  return and(
    sql`${t.status} <> 'paid_off'`,
    isNotNull(t.nextDueDate),
    from === null ? undefined : gte(t.nextDueDate, from),
    through === null ? undefined : lte(t.nextDueDate, through),
  );
}

/** The row_counts keys of a bucket: [from, to) over 'approved_loans:due:<day>' (dated keys sort before 'none'). */
function bucketKeys(bucket: DelinquencyBucket, today: string): { from: string; to: string } {
  const { from, through } = bucketDueDates(bucket, today);
  return {
    from: from === null ? DUE : `${DUE}${from}`,
    // The day after `through` as a key bound: every key of that day sorts below `${DUE}${through}~`.
    to: through === null ? `${DUE}none` : `${DUE}${through}~`,
  };
}

/** The loans in each bucket on `today`, from the kept counts: one read of the dated due-day keys. */
export async function loanBucketCounts(db: DbOrTx, today: string): Promise<Record<DelinquencyBucket, number>> {
  const sums = await keptCountsBetween(db, DELINQUENCY_BUCKET_KEYS.map((bucket) => bucketKeys(bucket, today)));
  return Object.fromEntries(DELINQUENCY_BUCKET_KEYS.map((b, i) => [b, sums[i]!])) as Record<DelinquencyBucket, number>;
}
