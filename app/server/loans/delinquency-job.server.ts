import { sql, type SQL } from "drizzle-orm";
import { addDays } from "~/domain/dates";
import { DELINQUENCY_BUCKETS, DELINQUENCY_BUCKET_KEYS } from "~/domain/delinquency";
import { monthEndsBefore, previousMonthEnd } from "~/domain/delinquency-ranges";
import type { Db, DbOrTx } from "~/server/platform/db/client.server";

/**
 * The delinquency book (decision 0096), written by the hourly servicing job:
 * - at each month end (the first run on or after the 1st, for the month just ended): every active
 *   loan's bucket and principal (delinquency_snapshots), the totals by bucket (delinquency_totals) and
 *   where the previous month end's loans went (delinquency_rolls, a join of the two snapshots); the
 *   snapshots of month ends over a year older go (SNAPSHOT_MONTH_ENDS_KEPT);
 * - on every other day, at its first run: the totals by bucket at the close of the day before, so the
 *   reports page reads six rows whatever the size of the book.
 * Days past due are counted to the as-of day from next_due_date (the first unpaid installment's day),
 * principal is balance_cents, both as the job finds them. Each as-of day is written once: one
 * transaction under an advisory lock checks whether its totals exist, and every insert is keyed by
 * the tables' primary keys, so two instances (or two runs) never write a day twice.
 */

const DELINQUENCY_JOB_LOCK_KEY = 724_199_340;

/**
 * The month ends whose loan-level snapshots are kept: the newest and the twelve before it (a year of
 * each loan's bucket, for a look back at a loan). The rolls read only the month end before; the totals
 * and rolls of every month end are kept for good, so the reports lose nothing when older snapshots go.
 */
export const SNAPSHOT_MONTH_ENDS_KEPT = 13;

/** The bucket of an approved_loans row on `asOf`, as SQL: the rule of delinquencyBucket, from its table. */
export function bucketSql(asOf: string, nextDueDate: SQL = sql.raw(`"next_due_date"`)): SQL {
  const days = sql`(${asOf}::date - ${nextDueDate})`;
  const whens = [...DELINQUENCY_BUCKETS]
    .reverse()
    .filter((b) => b.minDays > 0)
    .map((b) => sql`when ${days} >= ${sql.raw(String(b.minDays))} then ${sql.raw(`'${b.key}'`)}`);
  return sql`(case when ${nextDueDate} is null then 'current' ${sql.join(whens, sql` `)} else 'current' end)`;
}

/** Every bucket, as a VALUES list, so totals carry a row (zero) for the buckets no loan is in. */
const BUCKET_ROWS = sql.raw(`(values ${DELINQUENCY_BUCKET_KEYS.map((k) => `('${k}')`).join(", ")}) as b(bucket)`);

export type DelinquencyRunResult = { monthEnd: string | null; closedDay: string | null; snapshotLoans: number; rolls: number };

async function totalsExist(tx: DbOrTx, asOf: string): Promise<boolean> {
  const found = (await tx.execute(sql`select 1 as one from "delinquency_totals" where "as_of" = ${asOf}::date limit 1`)) as unknown as { rows: unknown[] };
  return found.rows.length > 0;
}

/** Month end `asOf`: the snapshot of every active loan, its totals, and the rolls from the month end before. */
async function writeMonthEnd(tx: DbOrTx, asOf: string): Promise<{ loans: number; rolls: number }> {
  const inserted = await tx.execute(sql`
    insert into "delinquency_snapshots" ("as_of", "loan_id", "bucket", "principal_cents")
    select ${asOf}::date, "id", ${bucketSql(asOf)}, "balance_cents"
      from "approved_loans"
     where "status" = 'active' and "start_date" <= ${asOf}::date
    on conflict do nothing`);
  await tx.execute(sql`
    insert into "delinquency_totals" ("as_of", "bucket", "loans", "principal_cents")
    select ${asOf}::date, b.bucket, count(s."loan_id")::int, coalesce(sum(s."principal_cents"), 0)
      from ${BUCKET_ROWS}
      left join "delinquency_snapshots" s on s."as_of" = ${asOf}::date and s."bucket" = b.bucket
     group by b.bucket
    on conflict do nothing`);
  // Where each loan of the month end before went: its bucket now, or (gone from the active book) its
  // status. Principal is the loan's at the earlier month end: the roll rate's share of principal.
  const prior = previousMonthEnd(asOf);
  const rolls = await tx.execute(sql`
    insert into "delinquency_rolls" ("as_of", "from_bucket", "to_bucket", "loans", "principal_cents")
    select ${asOf}::date, p."bucket",
           coalesce(c."bucket", case l."status" when 'paid_off' then 'paid_off' when 'charged_off' then 'charged_off' when 'settled' then 'settled' else 'closed' end) as to_bucket,
           count(*)::int, sum(p."principal_cents")
      from "delinquency_snapshots" p
      left join "delinquency_snapshots" c on c."as_of" = ${asOf}::date and c."loan_id" = p."loan_id"
      left join "approved_loans" l on l."id" = p."loan_id"
     where p."as_of" = ${prior}::date
     group by p."bucket", to_bucket
    on conflict do nothing`);
  // Snapshots older than the kept year go (one range of the primary key): the table holds at most
  // SNAPSHOT_MONTH_ENDS_KEPT month ends of the active book instead of growing every month for good.
  const oldestKept = monthEndsBefore(asOf, SNAPSHOT_MONTH_ENDS_KEPT - 1).at(-1) ?? asOf;
  await tx.execute(sql`delete from "delinquency_snapshots" where "as_of" < ${oldestKept}::date`);
  const count = (r: unknown) => Number((r as { rowCount?: number; affectedRows?: number }).rowCount ?? (r as { affectedRows?: number }).affectedRows ?? 0);
  return { loans: count(inserted), rolls: count(rolls) };
}

/** A day that is not a month end: the totals by bucket of the active loans, days counted to `asOf`. */
async function writeDayTotals(tx: DbOrTx, asOf: string): Promise<void> {
  await tx.execute(sql`
    insert into "delinquency_totals" ("as_of", "bucket", "loans", "principal_cents")
    select ${asOf}::date, b.bucket, count(l."bucket")::int, coalesce(sum(l."principal_cents"), 0)
      from ${BUCKET_ROWS}
      left join (select ${bucketSql(asOf)} as "bucket", "balance_cents" as "principal_cents"
                   from "approved_loans" where "status" = 'active' and "start_date" <= ${asOf}::date) l on l."bucket" = b.bucket
     group by b.bucket
    on conflict do nothing`);
}

/**
 * One run on `today` (UTC): the month end before today if it has no totals yet, then yesterday's
 * totals if yesterday was not that month end and has none. Cheap when done: two primary-key reads.
 */
export async function runDelinquencyJob(db: Db, today: string): Promise<DelinquencyRunResult> {
  const monthEnd = previousMonthEnd(today);
  const yesterday = addDays(today, -1);
  const result: DelinquencyRunResult = { monthEnd: null, closedDay: null, snapshotLoans: 0, rolls: 0 };
  if ((await totalsExist(db, monthEnd)) && (await totalsExist(db, yesterday))) return result;
  await db.transaction(async (tx) => {
    // One writer at a time; a second instance waits here, then finds the totals written and stops.
    await tx.execute(sql`select pg_advisory_xact_lock(${DELINQUENCY_JOB_LOCK_KEY})`);
    if (!(await totalsExist(tx, monthEnd))) {
      const written = await writeMonthEnd(tx, monthEnd);
      Object.assign(result, { monthEnd, snapshotLoans: written.loans, rolls: written.rolls });
    }
    if (yesterday !== monthEnd && !(await totalsExist(tx, yesterday))) {
      await writeDayTotals(tx, yesterday);
      result.closedDay = yesterday;
    }
  });
  return result;
}
