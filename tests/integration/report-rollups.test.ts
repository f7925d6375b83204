import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { Pool, PoolClient } from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APPLICATION_STATUSES, LOAN_TYPES } from "~/domain/enums";
import type { ReportRange } from "~/domain/validation/reports";
import { openDatabase, type Database } from "~/server/platform/db/client.server";
import { findMigrationsFolder, runMigrations } from "~/server/platform/db/migrate.server";
import { decisionDaysOf, loanApplications, requestItems, type NewLoanApplication } from "~/server/platform/db/schema.server";
import { pipelineReport } from "~/server/staff/pipeline-report.server";
import { completeSinceRule } from "~/server/applications/reg-b-clock.server";
import { applicationRow } from "../helpers/application-rows";
import { referencePipelineReport } from "../helpers/pipeline-reference";
import { openTestDatabase, TEST_DATABASE_URL, testTargets, type TestDatabase, rowsOf } from "../helpers/test-db";
import { seedApplicants } from "../helpers/seed";

/**
 * Issue 24, decision 0049: the reports page reads report_rollups (per UTC day and month) and
 * loan_applications.complete_since, both kept by triggers (drizzle/0014). Whatever writes the tables
 * (bulk inserts, decisions, moved submissions, reviewers deleted, request items answered, rejected or
 * removed, deletes, TRUNCATE), the kept rows must equal direct aggregates, complete_since must equal
 * the Reg B rule, and every figure of the page must equal what issue 22's direct queries give
 * (tests/helpers/pipeline-reference.ts), for ranges and instants cut anywhere.
 */

const DAY = 86_400_000;
const OFFICERS = ["rr-officer-a", "rr-officer-b", "rr-officer-c"];
const APPLICANT = "rr-applicant";
const REASONS = ["Insufficient income", "Credit history", "Debt-to-income ratio"];
const T0 = Date.parse("2025-09-20T00:00:00Z");
const SPAN = 260 * DAY;

/** A small deterministic PRNG (mulberry32), so a failure is reproducible. */
function prng(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)), pick: <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]! };
}

/** Kept rollups (non-zero) and the same keys aggregated straight from loan_applications. */
async function keptAndReal(database: Database) {
  const asMap = (list: { k: string; n: string | number }[]) => Object.fromEntries(list.map((r) => [r.k, Number(r.n)]));
  const kept = await rowsOf<{ k: string; n: string | number }>(database, sql`select concat_ws('|', metric, grain, period, a, b) as k, n from report_rollups where n <> 0`);
  const real = await rowsOf<{ k: string; n: string | number }>(
    database,
    sql`with k as (
          select 'status' as metric, (submitted_at at time zone 'UTC')::date as day, status as a, '' as b from loan_applications
          union all select 'decided', (submitted_at at time zone 'UTC')::date, loan_type, status from loan_applications where status in ('approved', 'denied', 'incomplete')
          union all select 'officer', (submitted_at at time zone 'UTC')::date, coalesce(reviewed_by, ''), status from loan_applications where status in ('approved', 'denied', 'incomplete')
          union all select 'reason', (submitted_at at time zone 'UTC')::date, reason, '' from loan_applications, unnest(decision_reasons) reason where status = 'denied'
          union all select 'reg_b', (${completeSinceRule()} at time zone 'UTC')::date, '', '' from loan_applications where status in ('pending', 'under_review') and ${completeSinceRule()} is not null
          union all select v.metric, (submitted_at at time zone 'UTC')::date, v.a, ''
            from loan_applications, lateral (select ${decisionDaysOf(sql`reviewed_at`, sql`submitted_at`)} as days) d,
                 lateral (values ('decision_days', floor(d.days)::text), ('decision_days:' || floor(d.days)::text, d.days::text)) v(metric, a)
            where status in ('approved', 'denied', 'incomplete') and reviewed_at is not null
        )
        select concat_ws('|', metric, grain, period, a, b) as k, count(*) as n
        from (select metric, 'day' as grain, day as period, a, b from k union all select metric, 'month', day - (extract(day from day)::int - 1), a, b from k) g
        group by 1`,
  );
  return { kept: asMap(kept), real: asMap(real) };
}

async function completeSinceMismatches(database: Database): Promise<number> {
  const [row] = await rowsOf<{ n: number }>(database, sql`select count(*)::int as n from loan_applications where complete_since is distinct from ${completeSinceRule()}`);
  return row!.n;
}

function randomApplication(r: ReturnType<typeof prng>): NewLoanApplication {
  const status = r.pick(APPLICATION_STATUSES);
  const decided = status === "approved" || status === "denied" || status === "incomplete";
  // Submissions on day edges too (midnight UTC exactly), so a key's boundary is exercised.
  const submittedAt = new Date(T0 + r.int(0, SPAN / DAY) * DAY + (r.next() < 0.2 ? 0 : r.int(0, DAY - 1)));
  const loanType = r.pick(LOAN_TYPES);
  return applicationRow(APPLICANT, {
    firstName: `R${r.int(1, 9999)}`,
    lastName: "Rollup",
    status,
    loanType,
    businessName: "Acme",
    propertyAddress: "1 Main Street, Wilmington, DE",
    submittedAt,
    reviewedAt: decided ? new Date(submittedAt.getTime() + r.int(0, 12 * DAY)) : null,
    reviewedBy: decided && r.next() < 0.9 ? r.pick(OFFICERS) : null,
    decisionReasons: status === "denied" && r.next() < 0.8 ? REASONS.filter(() => r.next() < 0.5) : null,
    // The applicant withdrew it: recorded with the time, never a decision.
    withdrawnAt: status === "withdrawn" ? new Date(submittedAt.getTime() + r.int(0, 12 * DAY)) : null,
  });
}

describe.each(testTargets)("reports' kept figures on %s", (target) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await openTestDatabase({ target });
    const people = [
      ["rr-officer-a", "Olive Officer", "rr-a@example.com"],
      ["rr-officer-b", "Bob Banker", "rr-b@example.com"],
      ["rr-officer-c", "Cleo Credit", "rr-c@example.com"],
      ["rr-applicant", "App", "rr-app@example.com"],
    ] as const;
    await seedApplicants(database.db, people.map(([id, name, email]) => ({ id, name, email, emailVerified: false })));
  });
  afterAll(() => database?.cleanup());

  async function expectConsistent(r: ReturnType<typeof prng>, checks: number) {
    const { kept, real } = await keptAndReal(database);
    expect(kept).toEqual(real);
    expect(await completeSinceMismatches(database)).toBe(0);
    for (let i = 0; i < checks; i++) {
      // Ranges from a day to the whole span and past it, ending anywhere; now anywhere inside or after.
      const from = new Date(T0 - 20 * DAY + r.int(0, SPAN / DAY) * DAY);
      const to = new Date(Math.min(from.getTime() + r.pick([0, 1, 13, 31, 45, 90, 200, 400]) * DAY, T0 + SPAN + 30 * DAY));
      const range: ReportRange = { from: from.toISOString().slice(0, 10), to: to.toISOString().slice(0, 10) };
      const now = new Date(T0 + r.int(0, SPAN + 40 * DAY) + (r.next() < 0.3 ? 0 : r.int(0, DAY)));
      expect(await pipelineReport(range, database.db, now)).toEqual(await referencePipelineReport(range, database.db, now));
    }
  }

  it("equal direct aggregates and issue 22's figures through random inserts, decisions, moves, requests and deletes", async () => {
    const r = prng(target === "postgres" ? 24 : 42);
    for (let round = 0; round < 4; round++) {
      await database.db.insert(loanApplications).values(Array.from({ length: 80 }, () => randomApplication(r)));
      const apps = await rowsOf<{ id: string; status: string }>(database, sql`select id, status from loan_applications order by id`);
      // Request items: outstanding, answered, rejected, several per application.
      const items = apps
        .filter(() => r.next() < 0.35)
        .flatMap((a) =>
          Array.from({ length: r.int(1, 3) }, () => {
            const status = r.pick(["requested", "received", "accepted", "rejected"] as const);
            return {
              requestId: randomUUID(),
              applicationId: a.id,
              userId: APPLICANT,
              kind: "question" as const,
              dueDate: "2026-06-01",
              status,
              rejectionReason: status === "rejected" ? "Unreadable" : null,
              answeredAt: status === "requested" ? null : new Date(T0 + r.int(0, SPAN)),
            };
          }),
        );
      if (items.length > 0) await database.db.insert(requestItems).values(items);
      await expectConsistent(r, 3);

      // Decisions of open applications (one statement, many keys), a reviewer swapped, reasons edited.
      await database.db.execute(sql`update loan_applications set status = case when ('x' || substr(md5(id::text || ${round}), 1, 2))::bit(8)::int % 3 = 0 then 'approved' when ('x' || substr(md5(id::text || ${round}), 1, 2))::bit(8)::int % 3 = 1 then 'denied' else 'incomplete' end,
        reviewed_at = submitted_at + interval '3 days 7 hours', reviewed_by = 'rr-officer-b', decision_reasons = array['Credit history', 'Other']
        where status in ('pending', 'under_review') and ('x' || substr(md5(id::text), 1, 2))::bit(8)::int % 4 = ${round}`);
      await database.db.execute(sql`update loan_applications set reviewed_by = 'rr-officer-c' where reviewed_by = 'rr-officer-a' and ('x' || substr(md5(id::text), 3, 2))::bit(8)::int % 5 = 0`);
      // Submissions moved (across a day and a month edge), and a statement that moves no key.
      await database.db.execute(sql`update loan_applications set submitted_at = submitted_at - interval '17 days 3 hours' where ('x' || substr(md5(id::text), 5, 2))::bit(8)::int % 9 = ${round}`);
      await database.db.execute(sql`update loan_applications set notes = 'Seen' where status = 'pending'`);
      // Requests answered, rejected, removed.
      await database.db.execute(sql`update request_items set status = 'received', answered_at = ${new Date(T0 + r.int(0, SPAN)).toISOString()}::timestamptz where status = 'requested' and ('x' || substr(md5(id::text), 1, 2))::bit(8)::int % 3 = 0`);
      await database.db.execute(sql`update request_items set status = 'rejected', rejection_reason = 'Blurred' where status = 'received' and ('x' || substr(md5(id::text), 3, 2))::bit(8)::int % 4 = 0`);
      await database.db.execute(sql`delete from request_items where ('x' || substr(md5(id::text), 5, 2))::bit(8)::int % 7 = ${round}`);
      // Applications deleted (their request items go with them).
      await database.db.execute(sql`delete from loan_applications where ('x' || substr(md5(id::text), 7, 2))::bit(8)::int % 11 = ${round}`);
      await expectConsistent(r, 4);
    }

    // A reviewer's account deleted: the foreign key sets reviewed_by null, so their decisions move to
    // "Not recorded", in the rollups as in a direct count.
    await database.db.execute(sql`delete from "user" where id = 'rr-officer-c'`);
    await expectConsistent(r, 3);

    await database.db.execute(sql`truncate request_items cascade`);
    await expectConsistent(r, 2);
    await database.db.execute(sql`truncate loan_applications cascade`);
    const { kept, real } = await keptAndReal(database);
    expect(kept).toEqual({});
    expect(real).toEqual({});
  });

  it("a day's keys at the page's edges: a range of one day, months whole and cut, the flag's cut to the microsecond", async () => {
    await database.db.insert(loanApplications).values([
      applicationRow(APPLICANT, { status: "pending", submittedAt: new Date("2026-03-01T00:00:00Z") }),
      applicationRow(APPLICANT, { status: "pending", submittedAt: new Date("2026-02-28T23:59:59.999Z") }),
      applicationRow(APPLICANT, { status: "under_review", submittedAt: new Date("2026-03-31T23:59:59.999Z") }),
      applicationRow(APPLICANT, { status: "approved", submittedAt: new Date("2026-03-15T10:00:00Z"), reviewedAt: new Date("2026-03-16T10:00:00Z"), reviewedBy: "rr-officer-a" }),
    ]);
    const now = new Date("2026-04-08T00:00:00Z"); // the 0–7 cut falls exactly on 2026-03-31T00:00Z
    for (const range of [
      { from: "2026-03-01", to: "2026-03-01" },
      { from: "2026-03-01", to: "2026-03-31" },
      { from: "2026-02-28", to: "2026-04-01" },
      { from: "2026-01-01", to: "2026-12-31" },
      { from: "2026-03-02", to: "2026-03-30" },
    ]) {
      const report = await pipelineReport(range, database.db, now);
      expect(report).toEqual(await referencePipelineReport(range, database.db, now));
    }
    const whole = await pipelineReport({ from: "2026-02-28", to: "2026-04-01" }, database.db, now);
    expect(Object.fromEntries(whole.ageing.map((a) => [a.key, a.count]))).toEqual({ "0-7": 1, "8-14": 0, "15-21": 0, "22-29": 0, "30+": 2 });
    // 2026-03-01T00:00Z + 25 days = the cut exactly: flagged at that instant, not a millisecond before.
    const atCut = await pipelineReport({ from: "2026-03-01", to: "2026-03-01" }, database.db, new Date("2026-03-26T00:00:00Z"));
    const before = await pipelineReport({ from: "2026-03-01", to: "2026-03-01" }, database.db, new Date("2026-03-25T23:59:59.999Z"));
    expect([before.regB.count, atCut.regB.count]).toEqual([1, 2]);
    await database.db.execute(sql`truncate loan_applications cascade`);
  });
  it("the median decision time from bucket counts: straddling middles, bucket edges, equal values, one decision, none (decision 0055)", async () => {
    // Each case on its own UTC day, decided that many intervals after submission (exact to the microsecond).
    const cases: { day: string; after: string[]; days: string | null }[] = [
      // One decision exactly on a display edge: 0.05 days rounds half away from zero.
      { day: "2027-02-01", after: ["1 hour 12 minutes"], days: "0.1" },
      // Two middles in two buckets (0.0 and 0.1), a microsecond apart: the median is below the edge.
      { day: "2027-02-02", after: ["1 hour 11 minutes 59.999999 seconds", "1 hour 12 minutes"], days: "0.0" },
      // Two middles in two buckets whose mean is exactly an edge (0.05 days): shown 0.1.
      { day: "2027-02-03", after: ["0 seconds", "2 hours 24 minutes"], days: "0.1" },
      // Two whole days apart: the median is in neither middle's bucket.
      { day: "2027-02-04", after: ["1 day", "3 days"], days: "2.0" },
      // Equal values on both sides of the middle, in two whole days.
      { day: "2027-02-05", after: ["1 day", "1 day", "2 days", "2 days"], days: "1.5" },
      // The same whole day, two tenths: 1.0625 days.
      { day: "2027-02-06", after: ["1 day", "1 day 3 hours"], days: "1.1" },
      // All equal: 3.25 days, shown 3.3.
      { day: "2027-02-07", after: Array.from({ length: 5 }, () => "3 days 6 hours"), days: "3.3" },
      // Reviewed before the recorded submission (a moved submission): below zero, across whole days -1 and 0.
      { day: "2027-02-08", after: ["-7 hours -12 minutes", "2 hours"], days: "-0.1" },
      // An odd count: the middle one's bucket, however far the others are.
      { day: "2027-02-09", after: ["10 minutes", "4 days 1 hour", "4 days 2 hours", "9 days", "40 days"], days: "4.1" },
    ];
    for (const c of cases) {
      const ids = await database.db
        .insert(loanApplications)
        .values(
          c.after.map((_, i) =>
            applicationRow(APPLICANT, { status: i % 2 ? "denied" : "approved", submittedAt: new Date(Date.parse(`${c.day}T09:00:00Z`) + i * 60_000), reviewedAt: new Date(`${c.day}T09:00:00Z`), reviewedBy: OFFICERS[0] }),
          ),
        )
        .returning({ id: loanApplications.id });
      for (const [i, { id }] of ids.entries()) {
        await database.db.execute(sql`update loan_applications set reviewed_at = submitted_at + ${c.after[i]!}::interval where id = ${id}`);
      }
    }
    // Open and undecided applications count for nothing.
    await database.db.insert(loanApplications).values([
      applicationRow(APPLICANT, { status: "pending", submittedAt: new Date("2027-02-10T09:00:00Z") }),
      applicationRow(APPLICANT, { status: "under_review", submittedAt: new Date("2027-02-04T12:00:00Z") }),
    ]);
    const now = new Date("2027-03-20T00:00:00Z");
    for (const c of cases) {
      const range = { from: c.day, to: c.day };
      const report = await pipelineReport(range, database.db, now);
      expect(report.medianDecision, c.day).toEqual({ days: c.days, decisions: c.after.length });
      expect(report, c.day).toEqual(await referencePipelineReport(range, database.db, now));
    }
    // None in the range: no median, as before.
    for (const range of [{ from: "2027-02-10", to: "2027-02-10" }, { from: "2027-01-01", to: "2027-01-31" }]) {
      const report = await pipelineReport(range, database.db, now);
      expect(report.medianDecision).toEqual({ days: null, decisions: 0 });
      expect(report).toEqual(await referencePipelineReport(range, database.db, now));
    }
    // Ranges joining the cases: whole months and edge days, every pair of first and last day.
    for (const from of ["2027-01-15", ...cases.map((c) => c.day)]) {
      for (const to of [...cases.map((c) => c.day), "2027-02-28", "2027-03-31"].filter((to) => to >= from)) {
        const range = { from, to };
        expect(await pipelineReport(range, database.db, now), `${from}..${to}`).toEqual(await referencePipelineReport(range, database.db, now));
      }
    }
    await database.db.execute(sql`truncate loan_applications cascade`);
  });
});

/**
 * Two transactions on their own connections: `first` runs, `second` starts and waits on what first
 * holds; after 200 ms first commits, then second finishes and commits.
 */
async function secondWaitsOnFirst(pool: Pool, first: (client: PoolClient) => Promise<unknown>, second: (client: PoolClient) => Promise<unknown>) {
  const one = await pool.connect();
  const two = await pool.connect();
  try {
    await one.query("begin");
    await two.query("begin");
    await first(one);
    const waiting = second(two);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await one.query("commit");
    await waiting;
    await two.query("commit");
  } finally {
    one.release();
    two.release();
  }
}

describe.runIf(TEST_DATABASE_URL)("reports' kept figures under concurrent writers on PostgreSQL", () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await openTestDatabase({ target: "postgres", poolSize: 4 });
    await seedApplicants(database.db, [
      { id: "rr-officer-a", name: "A", email: "rr-a@example.com", emailVerified: false },
      { id: "rr-applicant", name: "App", email: "rr-app@example.com", emailVerified: false },
    ]);
  });
  afterAll(() => database?.cleanup());

  it("two transactions changing the same day and month keys, in opposite orders, both commit and the sums are exact", async () => {
    const ids = await database.db
      .insert(loanApplications)
      .values(
        ["2026-03-03T10:00:00Z", "2026-03-03T11:00:00Z", "2026-03-20T10:00:00Z", "2026-03-20T11:00:00Z"].map((at) =>
          applicationRow(APPLICANT, { status: "pending", submittedAt: new Date(at) }),
        ),
      )
      .returning({ id: loanApplications.id });
    const [a, b, c, d] = ids.map((r) => r.id);
    // Both touch 2026-03-03, 2026-03-20 and March: one writes them in one order of rows, two in the other.
    // The second waits on the first's keys (never a deadlock: a statement takes its keys in key order).
    await secondWaitsOnFirst(
      database.pool!,
      (one) => one.query(`update loan_applications set status = 'approved', reviewed_at = now(), reviewed_by = 'rr-officer-a' where id in ($1, $2)`, [a, c]),
      (two) => two.query(`update loan_applications set status = 'denied', reviewed_at = now(), decision_reasons = '{Credit history}' where id in ($1, $2)`, [d, b]),
    );
    const { kept, real } = await keptAndReal(database);
    expect(kept).toEqual(real);
    expect(kept["status|month|2026-03-01|pending|"]).toBeUndefined();
    expect(kept["status|month|2026-03-01|approved|"]).toBe(2);
    expect(kept["status|month|2026-03-01|denied|"]).toBe(2);

    // Two transactions creating the same new day and month keys at once: the second's insert waits
    // for the first's, then adds to it.
    const insert = `insert into loan_applications (user_id, loan_type, requested_amount_cents, desired_rate_milli, loan_duration, purpose, first_name, last_name, date_of_birth, email, phone, address_line1, city, state, zip_code, ssn_encrypted, employment_status, employer_name, monthly_income_cents, annual_income_cents, status, submitted_at)
      select user_id, loan_type, requested_amount_cents, desired_rate_milli, loan_duration, purpose, first_name, last_name, date_of_birth, email, phone, address_line1, city, state, zip_code, ssn_encrypted, employment_status, employer_name, monthly_income_cents, annual_income_cents, 'pending', timestamptz '2026-05-07T08:00:00Z' + g * interval '1 minute'
      from loan_applications, generate_series(1, $2) g where id = $1`;
    await secondWaitsOnFirst(
      database.pool!,
      (three) => three.query(insert, [a, 3]),
      (four) => four.query(insert, [a, 4]),
    );
    const after = await keptAndReal(database);
    expect(after.kept).toEqual(after.real);
    expect(after.kept["status|day|2026-05-07|pending|"]).toBe(7);
    expect(after.kept["reg_b|month|2026-05-01||"]).toBe(7);
    const range = { from: "2026-03-01", to: "2026-05-31" };
    const now = new Date("2026-06-02T00:00:00Z");
    expect(await pipelineReport(range, database.db, now)).toEqual(await referencePipelineReport(range, database.db, now));
  });
});

describe("migrations 0014 and 0016 on a database that already has applications (PGlite)", () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "portal-0014-"));
  afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

  it("backfills complete_since by the rule and the rollups as direct aggregates, then keeps them", async () => {
    // The migrations before 0014 only, so the data below is what 0014 finds.
    const source = findMigrationsFolder();
    const journal = JSON.parse(fs.readFileSync(path.join(source, "meta/_journal.json"), "utf8")) as { entries: { tag: string }[] };
    // Found by name, so the test follows the migration if it is renumbered.
    const mine = journal.entries.findIndex((e) => e.tag.endsWith("_reports_at_flat_cost"));
    expect(mine).toBeGreaterThan(0);
    const before = journal.entries.slice(0, mine);
    fs.mkdirSync(path.join(folder, "meta"));
    fs.writeFileSync(path.join(folder, "meta/_journal.json"), JSON.stringify({ ...journal, entries: before }));
    for (const e of before) fs.copyFileSync(path.join(source, `${e.tag}.sql`), path.join(folder, `${e.tag}.sql`));
    const database = await openDatabase({ memory: true });
    try {
      await runMigrations(database, folder);
      await database.db.execute(sql`insert into "user" (id, name, email) values ('rr-officer-a', 'A', 'rr-a@example.com'), ('rr-applicant', 'App', 'rr-app@example.com')`);
      await database.db.execute(sql`
        insert into loan_applications (user_id, loan_type, requested_amount, desired_interest_rate, loan_duration, purpose, first_name, last_name, date_of_birth, email, phone, address_line1, city, state, zip_code, ssn_encrypted, employment_status, employer_name, monthly_income, annual_income,
                                       status, submitted_at, reviewed_at, reviewed_by, decision_reasons)
        select 'rr-applicant', (array['personal', 'private', 'auto-loans'])[1 + g % 3], 25000, 9.5, 36, 'Consolidating two credit cards into one payment', 'M' || g, 'Igrate', '1985-02-03', 'm@example.com', '3025550199', '1 Main Street', 'Wilmington', 'DE', '19801', 'enc:v1:AAAA', 'full-time', 'Acme', 8000, 96000,
               s.status, timestamptz '2025-11-03T05:00:00Z' + g * interval '19 hours 7 minutes',
               case when s.status in ('approved', 'denied', 'incomplete') then timestamptz '2025-11-03T05:00:00Z' + g * interval '19 hours 7 minutes' + (g % 9) * interval '1 day' end,
               case when s.status in ('approved', 'denied', 'incomplete') and g % 4 <> 0 then 'rr-officer-a' end,
               case when s.status = 'denied' then array['Credit history'] end
        from generate_series(1, 300) g, lateral (select (array['pending', 'under_review', 'approved', 'denied', 'incomplete'])[1 + g % 5] as status) s`);
      await database.db.execute(sql`
        insert into request_items (request_id, application_id, user_id, kind, due_date, status, rejection_reason, answered_at)
        select gen_random_uuid(), a.id, a.user_id, 'question', '2026-06-01', (array['requested', 'received', 'rejected', 'accepted'])[1 + k % 4],
               case when k % 4 = 2 then 'Unreadable' end, case when k % 4 <> 0 then a.submitted_at + k * interval '2 days' end
        from loan_applications a, generate_series(1, 2) k where ('x' || substr(md5(a.id::text), 1, 2))::bit(8)::int % 3 = 0`);
      await runMigrations(database);
      const { kept, real } = await keptAndReal(database);
      expect(Object.keys(kept).length).toBeGreaterThan(100);
      // 0014's rebuild kept no median buckets; 0016 backfilled them (decision 0055).
      expect(Object.keys(kept).filter((k) => k.startsWith("decision_days:")).length).toBeGreaterThan(10);
      expect(kept).toEqual(real);
      expect(await completeSinceMismatches(database)).toBe(0);
      const [counts] = await rowsOf<{ complete: number; outstanding: number }>(
        database,
        sql`select count(complete_since)::int as complete, (count(*) - count(complete_since))::int as outstanding from loan_applications`,
      );
      expect(counts!.complete).toBeGreaterThan(0);
      expect(counts!.outstanding).toBeGreaterThan(0);
      const range = { from: "2025-11-01", to: "2026-05-31" };
      const now = new Date("2026-06-01T12:00:00Z");
      expect(await pipelineReport(range, database.db, now)).toEqual(await referencePipelineReport(range, database.db, now));
    } finally {
      await database.close();
    }
  });
});
