import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { todayUtc } from "~/domain/dates";
import { DELINQUENCY_BUCKET_KEYS } from "~/domain/delinquency";
import { bucketDueDates, previousMonthEnd } from "~/domain/delinquency-ranges";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import { loadConfig, setConfig } from "~/server/platform/config.server";
import { openDatabase } from "~/server/platform/db/client.server";
import { encodeCursor } from "~/server/platform/db/paging.server";
import { runDelinquencyJob } from "~/server/loans/delinquency-job.server";
import { delinquencyReport } from "~/server/loans/delinquency-report.server";
import { listLoans, LOANS_PAGE_SIZE } from "~/server/loans/staff-loans.server";
import { seedScale, type ScaleSeedResult } from "../../bench/seed-scale";
import { captureStatements, expectBounded, type StatementCapture } from "../helpers/query-plans";
import { openTestDatabase, TEST_DATABASE_URL, type TestDatabase } from "../helpers/test-db";
import { scratchDirs } from "../helpers/scratch-dirs";

/**
 * Decision 0096 on PostgreSQL (its planner's choices are production's), with the scale seed's loan
 * book (loans in every bucket, thousands current, some paid off), ANALYZEd: the loans list by bucket
 * (first, middle and last page) reads a page of index entries and a handful of kept counts; the
 * reports page's Delinquency and Roll Rates read a few dozen rows of totals and rolls, however many
 * loans there are; the job's "already done" check reads nothing else; two instances running the job
 * at once write a month end once.
 */

const PASSWORD = "Str0ng!Passw0rd";
/**
 * The kept counts a bucket count reads: one row per due day of the loans not paid off, so at most the
 * days from the oldest unpaid due date (120+ lasts until the charge-off decision) to a month ahead.
 */
const DUE_DAY_KEYS = { row_counts: 400 };
const dataDir = scratchDirs("portal-delinquency-plans-")();

describe.skipIf(!TEST_DATABASE_URL)("delinquency reads on a seeded PostgreSQL database", () => {
  let database: TestDatabase;
  let seeded: ScaleSeedResult;
  let plans: StatementCapture;
  let staff: AuditActor;
  const today = todayUtc();
  const pool = () => database.pool!;
  const one = async <T>(text: string, values: unknown[] = []): Promise<T> => (await pool().query(text, values)).rows[0] as T;
  const request = { ip: "203.0.113.9", userAgent: "delinquency-plans" };

  beforeAll(async () => {
    setConfig(loadConfig({ DATA_DIR: dataDir, APP_SECRET: "q".repeat(48), PWNED_PASSWORDS_URL: "off" }));
    database = await openTestDatabase({ target: "postgres", global: true, poolSize: 2 });
    seeded = await seedScale(database, { applicants: 2000, applications: 12000, admins: 2, password: PASSWORD });
    staff = seeded.admins[0]!;
    // Three month ends measured (snapshots, totals, rolls), then yesterday's totals.
    const monthStart = (back: number) => {
      const d = new Date(`${today.slice(0, 7)}-01T00:00:00Z`);
      d.setUTCMonth(d.getUTCMonth() - back);
      return d.toISOString().slice(0, 10);
    };
    for (const back of [2, 1, 0]) await runDelinquencyJob(database.db, monthStart(back));
    await pool().query("vacuum analyze");
    plans = captureStatements(pool());
  }, 600_000);
  afterAll(() => database?.cleanup());

  it("the seed's book has loans in every bucket, most of them current", async () => {
    const { rows } = await pool().query<{ bucket: string; n: number }>(
      `select case when next_due_date >= $1::date then 'current' when $1::date - next_due_date < 30 then '1-29' when $1::date - next_due_date < 60 then '30-59'
                   when $1::date - next_due_date < 90 then '60-89' when $1::date - next_due_date < 120 then '90-119' else '120+' end as bucket, count(*)::int as n
         from approved_loans where status = 'active' group by 1`,
      [today],
    );
    const counts = Object.fromEntries(rows.map((r) => [r.bucket, r.n]));
    for (const bucket of DELINQUENCY_BUCKET_KEYS) expect(counts[bucket] ?? 0, bucket).toBeGreaterThan(5);
    expect(counts.current).toBeGreaterThan(seeded.approvedLoans / 2);
  });

  it("the loans list by each bucket: the count from kept rows, first, middle and last pages a page of index entries", async () => {
    for (const bucket of DELINQUENCY_BUCKET_KEYS) {
      const { from, through } = bucketDueDates(bucket, today);
      const where = `approved_loans where status <> 'paid_off' and next_due_date is not null${from ? ` and next_due_date >= '${from}'` : ""}${through ? ` and next_due_date <= '${through}'` : ""}`;
      const direct = await one<{ n: number }>(`select count(*)::int as n from ${where}`);
      const first = await plans.capture(() => listLoans({ filter: "all", bucket, q: "", page: 1 }, { actor: staff, request }, database.db, today));
      expect(first.result.total, bucket).toBe(direct.n);
      expect(first.result.bucketCounts[bucket]).toBe(direct.n);
      expect(first.result.loans.every((l) => l.bucket === bucket)).toBe(true);
      await expectBounded(pool(), first.statements, { rows: LOANS_PAGE_SIZE * 4, rowsOf: DUE_DAY_KEYS });
      const last = await plans.capture(() => listLoans({ filter: "all", bucket, q: "", last: true }, { actor: staff, request }, database.db, today));
      expect(last.result.loans.length).toBe(direct.n - (last.result.pageCount - 1) * LOANS_PAGE_SIZE);
      await expectBounded(pool(), last.statements, { rows: LOANS_PAGE_SIZE * 4 * 4, indexEntries: LOANS_PAGE_SIZE * 4 * 4, rowsOf: DUE_DAY_KEYS });
      if (direct.n < LOANS_PAGE_SIZE * 3) continue;
      const half = Math.floor(direct.n / 2);
      const row = await one<{ d: string; a: string; id: string }>(`select next_due_date::text as d, approval_date::text as a, id::text as id from ${where} order by next_due_date asc, approval_date desc, id asc offset ${half} limit 1`);
      const token = encodeCursor({ scope: `loans:bucket:${bucket}`, page: Math.floor(half / LOANS_PAGE_SIZE) + 1, key: [row.d, row.a, row.id] });
      const middle = await plans.capture(() => listLoans({ filter: "all", bucket, q: "", after: token }, { actor: staff, request }, database.db, today));
      expect(middle.result.loans.length).toBeGreaterThan(0);
      expect(middle.result.loans.every((l) => l.bucket === bucket)).toBe(true);
      await expectBounded(pool(), middle.statements, { rows: LOANS_PAGE_SIZE * 4 * 4, indexEntries: LOANS_PAGE_SIZE * 4 * 4, rowsOf: DUE_DAY_KEYS });
    }
  });

  it("the reports page's Delinquency and Roll Rates: a few dozen rows of totals and rolls, matching a direct count of the snapshot", async () => {
    const { result, statements } = await plans.capture(() => delinquencyReport(database.db, today));
    const lastEnd = previousMonthEnd(today);
    expect(result.asOf).toBe(lastEnd);
    const direct = await one<{ n: number; p: string }>(`select count(*)::int as n, coalesce(sum(balance_cents), 0)::text as p from approved_loans where status = 'active' and start_date <= $1::date`, [lastEnd]);
    expect(result.totalLoans).toBe(direct.n);
    expect(result.totalPrincipalCents).toBe(Number(direct.p));
    expect(result.rolls.map((r) => r.asOf)).toEqual([lastEnd, previousMonthEnd(lastEnd)]);
    await expectBounded(pool(), statements, { rows: 100 });
  });

  it("a run with its work done reads two totals keys; two instances at once write a month end once", async () => {
    const again = await plans.capture(() => runDelinquencyJob(database.db, today));
    // Yesterday's totals (unless today is the 1st) are written now, then the job is done for the day.
    const done = await plans.capture(() => runDelinquencyJob(database.db, today));
    expect(done.result).toEqual({ monthEnd: null, closedDay: null, snapshotLoans: 0, rolls: 0 });
    await expectBounded(pool(), done.statements, { rows: 1 });
    expect(again.result.monthEnd).toBeNull();

    // Another instance: its own pool on the same database. A month end not yet measured, by both at once.
    const other = await openDatabase({ databaseUrl: database.url!, poolSize: 2 });
    try {
      const target = "2020-03-01";
      const [a, b] = await Promise.all([runDelinquencyJob(database.db, target), runDelinquencyJob(other.db, target)]);
      expect([a.monthEnd, b.monthEnd].filter(Boolean)).toEqual(["2020-02-29"]);
      const totals = await one<{ n: number }>(`select count(*)::int as n from delinquency_totals where as_of = '2020-02-29'`);
      expect(totals.n).toBe(DELINQUENCY_BUCKET_KEYS.length);
    } finally {
      await other.close();
    }
  });
});
