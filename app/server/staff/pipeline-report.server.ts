import { sql, type SQL } from "drizzle-orm";
import { OPEN_REVIEW_STATUSES } from "~/domain/application-lifecycle";
import { APPLICATION_STATUSES, LOAN_TYPES, type ApplicationStatus, type LoanType } from "~/domain/enums";
import type { PageRequest } from "~/domain/paging";
import { rangeInstants, type ReportRange } from "~/domain/validation/reports";
import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";
import { getDb, type Db } from "~/server/platform/db/client.server";
import { sqlList } from "~/server/platform/db/columns.server";
import { reportRollups } from "~/server/platform/db/schema.server";
import { accountNameOf } from "~/server/accounts/index.server";
import { rateTenths, type PipelineReport } from "~/domain/views/pipeline-report";
import { openCompleteBetween, openSubmittedBetween, regBFlagCutoff, regBListPage, straddlingMedian } from "~/server/applications/index.server";
import { isoDay } from "~/domain/dates";

/**
 * The Pipeline Reports page: every figure is an aggregate the database computes, never rows
 * loaded into JavaScript. Decision 0049: the range's figures are sums of report_rollups
 * (kept per UTC day and month by a trigger) plus exact index counts of the few edge days cut by an
 * instant, and the Reg B clock reads the kept complete_since off a partial index, so a load reads the
 * same few hundred rows at ten applications or a million; the exact median too, from counts per
 * display bucket (decision 0055). Rates come back as integer counts and are turned into tenths of a
 * percent with integer arithmetic, so no float rounding can show 66.6 % for two of three.
 */

export const AGEING_BUCKETS = [
  { key: "0-7", label: "0–7 days", min: 0, max: 7 },
  { key: "8-14", label: "8–14 days", min: 8, max: 14 },
  { key: "15-21", label: "15–21 days", min: 15, max: 21 },
  { key: "22-29", label: "22–29 days", min: 22, max: 29 },
  { key: "30+", label: "30+ days", min: 30, max: null },
] as const;

const DAY_MS = 86_400_000;
const OPEN = sqlList(OPEN_REVIEW_STATUSES);

const dayStart = (day: string): Date => new Date(`${day}T00:00:00Z`);
const monthStart = (day: string): string => `${day.slice(0, 8)}01`;
function nextMonth(day: string): string {
  const d = dayStart(monthStart(day));
  d.setUTCMonth(d.getUTCMonth() + 1);
  return isoDay(d);
}

/**
 * A metric's report_rollups rows (a, b, n) for the UTC days [from, to), `from` null meaning since ever:
 * the whole months by their month row and the days at either edge by their day rows, so a five-year
 * range reads at most ~60 + ~62 rows per key. Each part is one range of the primary key.
 */
function rollupRows(metric: string | SQL, from: string | null, to: string): SQL {
  const part = (grain: "day" | "month", lo: string | null, hi: string) =>
    sql`select a, b, n from ${reportRollups} where metric = ${metric} and grain = ${grain} and period < ${hi}::date${lo === null ? sql`` : sql` and period >= ${lo}::date`}`;
  const lastMonth = monthStart(to);
  const firstMonth = from === null ? null : from.endsWith("-01") ? from : nextMonth(from);
  if (firstMonth !== null && firstMonth >= lastMonth) return sql`(${part("day", from, to)})`;
  const parts = [part("month", firstMonth, lastMonth), part("day", lastMonth, to)];
  if (from !== null && firstMonth !== null && from < firstMonth) parts.push(part("day", from, firstMonth));
  return sql`(${sql.join(parts, sql` union all `)})`;
}

async function rowsOf<T>(query: Promise<unknown>): Promise<T[]> {
  return ((await query) as { rows: T[] }).rows;
}

/** report_rollups metrics of the median (decision 0055; kept by drizzle/0016's trigger). */
const DECISION_DAYS = "decision_days";
const decisionTenthsMetric = (wholeDays: SQL) => sql`(${`${DECISION_DAYS}:`}::text || ${wholeDays})`;

export type MedianDecision = { days: string | null; decisions: number };

/** One display bucket's decisions in the range, the buckets in ascending order of the bucket's value. */
export type BucketCount = { bucket: string; n: number };

/**
 * The display buckets holding the 0-based positions lo = floor((N - 1) / 2) and hi = ceil((N - 1) / 2)
 * of the range's decisions in duration order, given the counts of the consecutive buckets `buckets`
 * that start after `before` decisions. Pure, for the median below.
 */
export function middleBuckets(total: number, before: number, buckets: BucketCount[]): { lo: string; hi: string } {
  const at = (position: number): string => {
    let seen = before;
    for (const b of buckets) {
      seen += b.n;
      if (position < seen) return b.bucket;
    }
    // Counts read in one statement always cover the middle; anything else is a broken rollup.
    throw new Error(`report_rollups: no decision_days bucket holds position ${position} of ${total}`);
  };
  return { lo: at(Math.floor((total - 1) / 2)), hi: at(Math.ceil((total - 1) / 2)) };
}

/**
 * The exact median decision time of the decisions submitted in [start, end), shown as days with one
 * decimal: what `round((percentile_cont(0.5) within group (order by duration) / 86400)::numeric, 1)`
 * over the range gives, without reading the range's decisions (decision 0055).
 *
 * The shown value is a never-decreasing function of the duration, and percentile_cont's median lies
 * between the durations at positions lo and hi; so when both are in one display bucket, that bucket is
 * the answer. One statement (one snapshot) reads the range's counts per whole day of the bucket, picks
 * the one or two whole days holding lo and hi, and reads their tenths. When lo and hi still fall in two
 * buckets (an even count split exactly there), straddlingMedian reads their two exact durations.
 */
export async function medianDecisionTime(range: ReportRange, db: Db = getDb()): Promise<MedianDecision> {
  const endDay = isoDay(rangeInstants(range).end);
  const rows = await rowsOf<{ total: string | number; before: string | number; bucket: string; n: string | number }>(
    db.execute(sql`
      with whole as (
        select a, sum(n) as n from ${rollupRows(DECISION_DAYS, range.from, endDay)} r group by a having sum(n) <> 0
      ), placed as (
        select a, n, sum(n) over (order by a::numeric) - n as before, sum(n) over () as total from whole
      ), middle as (
        -- The whole days whose decisions include position floor((N - 1) / 2) or ceil((N - 1) / 2).
        select a, before, total from placed
        where before <= ceil((total - 1) / 2.0) and before + n > floor((total - 1) / 2.0)
      )
      select m.total, min(m.before) over () as before, t.a as bucket, sum(t.n) as n
      from middle m cross join lateral ${rollupRows(decisionTenthsMetric(sql`m.a`), range.from, endDay)} t
      group by m.total, m.before, t.a
      having sum(t.n) <> 0
      order by t.a::numeric`),
  );
  if (rows.length === 0) return { days: null, decisions: 0 };
  const total = Number(rows[0]!.total);
  const { lo, hi } = middleBuckets(
    total,
    Number(rows[0]!.before),
    rows.map((r) => ({ bucket: r.bucket, n: Number(r.n) })),
  );
  if (lo === hi) return { days: lo, decisions: total };
  return { days: await straddlingMedian(range, lo, hi, db), decisions: total };
}

/** The report of `range`, with the page of the Reg B list `regBPage` asks for (default the first). */
export async function pipelineReport(range: ReportRange, db: Db = getDb(), now: Date = new Date(), regBPage: PageRequest = {}): Promise<PipelineReport> {
  const { start, end } = rangeInstants(range);
  const endDay = isoDay(end);
  const nowIso = now.toISOString();
  const cutoff = regBFlagCutoff(now);

  // Ageing: an open application is `floor((now - submitted_at) / 1 day)` days old, so the buckets are
  // cut at the instants now - 8, 15, 22 and 30 days. Open ones of the range submitted at or before
  // each cut = the whole UTC days before the cut's day (rollups) + that day up to the cut (index).
  const cuts = AGEING_BUCKETS.slice(1).map((b) => new Date(now.getTime() - b.min * DAY_MS));
  const inside = cuts.filter((cut) => cut >= start && cut < end);
  const cutParts = inside.map(
    (cut, i) => sql`(select coalesce(sum(n), 0) from ${rollupRows("status", range.from, isoDay(cut))} r where r.a in ${OPEN})::bigint as ${sql.raw(`whole${i}`)},
      ${openSubmittedBetween(dayStart(isoDay(cut)), cut)}::bigint as ${sql.raw(`edge${i}`)}`,
  );

  const [statusRows, decidedRows, medianDecision, officerRows, reasonRows, cutRows, regB] = await Promise.all([
    rowsOf<{ status: ApplicationStatus; count: string | number }>(
      db.execute(sql`select a as status, sum(n)::bigint as count from ${rollupRows("status", range.from, endDay)} r group by a`),
    ),
    rowsOf<{ loanType: LoanType; status: ApplicationStatus; count: string | number }>(
      db.execute(sql`select a as "loanType", b as status, sum(n)::bigint as count from ${rollupRows("decided", range.from, endDay)} r group by a, b`),
    ),
    medianDecisionTime(range, db),
    rowsOf<{ officerId: string | null; name: string | null; approved: number; denied: number; incomplete: number; total: number }>(
      db.execute(sql`
        select o."officerId", o.approved, o.denied, o.incomplete, o.total,
          -- The reviewers of the range, a few rows: each name by the primary key, never "user" whole.
          ${accountNameOf(sql`o."officerId"`)} as name
        from (
          select nullif(r.a, '') as "officerId",
            (sum(n) filter (where r.b = 'approved'))::int as approved,
            (sum(n) filter (where r.b = 'denied'))::int as denied,
            (sum(n) filter (where r.b = 'incomplete'))::int as incomplete,
            sum(n)::int as total
          from ${rollupRows("officer", range.from, endDay)} r
          group by r.a
          having sum(n) > 0
        ) o
        order by o.total desc, name asc`),
    ),
    rowsOf<{ reason: string; count: number }>(
      db.execute(sql`
        select a as reason, sum(n)::int as count
        from ${rollupRows("reason", range.from, endDay)} r
        group by a
        having sum(n) > 0
        order by sum(n) desc, a asc`),
    ),
    cutParts.length === 0 ? Promise.resolve([] as Record<string, unknown>[]) : rowsOf<Record<string, unknown>>(db.execute(sql`select ${sql.join(cutParts, sql`, `)}`)),
    // Flagged: open applications complete since the cut's day or before. The whole days before it from
    // the rollups, the cut's own day up to the cut from loan_applications_reg_b_idx. The list's page
    // follows it: its page count, and how many rows Last shows, come from that count.
    rowsOf<{ whole: string | number; edge: string | number }>(
      db.execute(sql`select
        (select coalesce(sum(n), 0) from ${rollupRows("reg_b", null, isoDay(cutoff))} r)::bigint as whole,
        ${openCompleteBetween(dayStart(isoDay(cutoff)), cutoff)}::bigint as edge`),
    ).then((rows) => regBListPage(db, regBPage, Number(rows[0]?.whole ?? 0) + Number(rows[0]?.edge ?? 0), now)),
  ]);

  const statusCounts = new Map(statusRows.map((r) => [r.status, Number(r.count)]));
  const openTotal = OPEN_REVIEW_STATUSES.reduce((sum, status) => sum + (statusCounts.get(status) ?? 0), 0);
  // Open applications of the range submitted at or before each cut.
  const upTo = cuts.map((cut) => {
    if (cut < start) return 0;
    if (cut >= end) return openTotal;
    const i = inside.indexOf(cut);
    return Number(cutRows[0]?.[`whole${i}`]) + Number(cutRows[0]?.[`edge${i}`]);
  });
  const ageingCounts = new Map(AGEING_BUCKETS.map((b, i) => [b.key, (i === 0 ? openTotal : upTo[i - 1]!) - (upTo[i] ?? 0)]));
  const rates = new Map<string, { approved: number; decided: number }>();
  for (const r of decidedRows) {
    const rate = rates.get(r.loanType) ?? { approved: 0, decided: 0 };
    rate.decided += Number(r.count);
    if (r.status === "approved") rate.approved += Number(r.count);
    rates.set(r.loanType, rate);
  }

  return {
    range,
    generatedAt: nowIso,
    byStatus: APPLICATION_STATUSES.map((status) => ({ status, count: statusCounts.get(status) ?? 0 })),
    ageing: AGEING_BUCKETS.map((b) => ({ key: b.key, label: b.label, count: ageingCounts.get(b.key) ?? 0 })),
    medianDecision,
    perOfficer: officerRows.map((r) => ({
      officerId: r.officerId,
      // A decision whose reviewer's account was since deleted keeps counting, under a name that says so.
      name: r.name ?? (r.officerId ? "Former staff member" : "Not recorded"),
      approved: Number(r.approved),
      denied: Number(r.denied),
      incomplete: Number(r.incomplete),
      total: Number(r.total),
    })),
    denialReasons: reasonRows.map((r) => ({ reason: r.reason, count: Number(r.count) })),
    approvalRate: LOAN_TYPES.map((loanType) => {
      const row = rates.get(loanType);
      const approved = Number(row?.approved ?? 0);
      const decidedCount = Number(row?.decided ?? 0);
      return { loanType, approved, decided: decidedCount, rateTenths: rateTenths(approved, decidedCount) };
    }),
    regB,
  };
}

/** The page's load: the report and its audit row ('reports.view', with the range), once per load. */
export async function viewPipelineReport(
  range: ReportRange,
  { actor, request }: Caller,
  regBPage: PageRequest = {},
  db: Db = getDb(),
  now: Date = new Date(),
): Promise<PipelineReport> {
  const report = await pipelineReport(range, db, now, regBPage);
  await writeAudit(db, { actor, action: "reports.view", table: "loan_applications", details: { from: range.from, to: range.to }, request });
  return report;
}

export type { PipelineReport };
