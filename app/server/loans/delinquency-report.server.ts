import { desc, eq, inArray, sql } from "drizzle-orm";
import { todayUtc } from "~/domain/dates";
import { DELINQUENCY_BUCKET_KEYS, delinquencyBucketLabel, type DelinquencyBucket } from "~/domain/delinquency";
import { monthEndsBefore, nextWorseBucket, previousMonthEnd } from "~/domain/delinquency-ranges";
import type { DelinquencyReport, RollMonth } from "~/domain/views/delinquency-report";
import { getDb, type DbOrTx } from "~/server/platform/db/client.server";
import { delinquencyRolls, delinquencyTotals } from "~/server/platform/db/schema.server";

/** How many month ends of roll rates the reports page shows. */
export const ROLL_RATE_MONTHS = 12;

/**
 * The reports page's Delinquency and Roll Rates (decision 0096): the newest close's totals by bucket
 * (six rows of delinquency_totals, found by its primary key's newest as_of) and the rolls of the last
 * twelve month ends (primary-key ranges). The cost is the same for ten loans or a million.
 */
export async function delinquencyReport(db: DbOrTx = getDb(), today: string = todayUtc()): Promise<DelinquencyReport> {
  const [newest] = await db.select({ asOf: delinquencyTotals.asOf }).from(delinquencyTotals).where(sql`${delinquencyTotals.asOf} < ${today}::date`).orderBy(desc(delinquencyTotals.asOf)).limit(1);
  const asOf = newest?.asOf ?? null;
  const latest = asOf ? await db.select().from(delinquencyTotals).where(eq(delinquencyTotals.asOf, asOf)) : [];
  const byBucket = new Map(latest.map((r) => [r.bucket, r]));
  const buckets = DELINQUENCY_BUCKET_KEYS.map((bucket) => ({
    bucket,
    label: delinquencyBucketLabel(bucket),
    loans: byBucket.get(bucket)?.loans ?? 0,
    principalCents: Number(byBucket.get(bucket)?.principalCents ?? 0),
  }));

  const ends = monthEndsBefore(today, ROLL_RATE_MONTHS);
  const withPrior = [...ends, previousMonthEnd(ends[ends.length - 1]!)];
  const measured = new Set((await db.selectDistinct({ asOf: delinquencyTotals.asOf }).from(delinquencyTotals).where(inArray(delinquencyTotals.asOf, withPrior))).map((r) => r.asOf));
  const rollRows = await db.select().from(delinquencyRolls).where(inArray(delinquencyRolls.asOf, ends));
  const rolls: RollMonth[] = [];
  for (const end of ends) {
    const prior = previousMonthEnd(end);
    if (!measured.has(end) || !measured.has(prior)) continue;
    const rows = rollRows.filter((r) => r.asOf === end);
    const from = (bucket: DelinquencyBucket) => rows.filter((r) => r.fromBucket === bucket);
    const sum = (list: typeof rows, pick: (r: (typeof rows)[number]) => number) => list.reduce((s, r) => s + pick(r), 0);
    const rates = DELINQUENCY_BUCKET_KEYS.flatMap((bucket) => {
      const to = nextWorseBucket(bucket);
      if (!to) return [];
      const base = from(bucket);
      const rolled = base.filter((r) => r.toBucket === to);
      return [{
        from: bucket,
        fromLabel: delinquencyBucketLabel(bucket),
        to,
        toLabel: delinquencyBucketLabel(to),
        baseLoans: sum(base, (r) => r.loans),
        basePrincipalCents: sum(base, (r) => Number(r.principalCents)),
        rolledLoans: sum(rolled, (r) => r.loans),
        rolledPrincipalCents: sum(rolled, (r) => Number(r.principalCents)),
      }];
    });
    const delinquentThen = rows.filter((r) => r.fromBucket !== "current");
    rolls.push({
      asOf: end,
      priorAsOf: prior,
      rates,
      cured: { loans: sum(delinquentThen.filter((r) => r.toBucket === "current"), (r) => r.loans), baseLoans: sum(delinquentThen, (r) => r.loans) },
      paidOff: { loans: sum(rows.filter((r) => r.toBucket === "paid_off"), (r) => r.loans), baseLoans: sum(rows, (r) => r.loans) },
    });
  }
  return {
    asOf,
    buckets,
    totalLoans: buckets.reduce((s, b) => s + b.loans, 0),
    totalPrincipalCents: buckets.reduce((s, b) => s + b.principalCents, 0),
    rolls,
  };
}
