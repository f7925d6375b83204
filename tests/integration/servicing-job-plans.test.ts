import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { PoolClient } from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { servicingTermsFrom } from "~/domain/servicing-terms";
import { getConfig, loadConfig, setConfig } from "~/server/platform/config.server";
import { approvedLoans, loanApplications } from "~/server/platform/db/schema.server";
import { ledgerRows } from "~/server/loans/ledger.server";
import { runServicingJobs } from "~/server/loans/servicing-jobs.server";
import { applicationRow } from "../helpers/application-rows";
import { queueAutopayDebits } from "~/server/loans/autopay-job.server";
import { captureStatements, planOf, rowsRead, scans, type PlanNode } from "../helpers/query-plans";
import { openTestDatabase, TEST_DATABASE_URL, type TestDatabase } from "../helpers/test-db";
import { seedApplicants } from "../helpers/seed";

/**
 * Decision 0056: the servicing job's batches at flat cost. On PostgreSQL (its planner's choices are
 * production's), a lender's loans in every state the job meets: thousands already looked at today,
 * some never looked at (no due date known, or past due), some looked at yesterday, thousands current
 * and not due, some paid off. Each batch's candidate read is EXPLAIN ANALYZEd at the moment the job
 * sends it (same transaction, same parameters, before the statement itself runs), so a late batch is
 * measured in the state a late batch sees. Before 0056 a batch walked the (status, next_due_date)
 * range from its start and dropped the loans already serviced today by their serviced_on: batch k
 * read k batches of rows, and every hourly run after the first of the day read them all.
 */

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-servicing-plans-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const TODAY = "2026-06-15";
const at = new Date(`${TODAY}T12:00:00.000Z`);
const day = (offset: number) => {
  const d = new Date(`${TODAY}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
};

/** Every node of a plan, depth first. */
function nodes(node: PlanNode, out: PlanNode[] = []): PlanNode[] {
  out.push(node);
  for (const child of node.Plans ?? []) nodes(child, out);
  return out;
}

/** Rows a scan looked at: handed up, and read then dropped by a filter. */
function rowsLookedAt(node: PlanNode): number {
  const removed = (node as { "Rows Removed by Filter"?: number })["Rows Removed by Filter"] ?? 0;
  return rowsRead(node) + removed * (node["Actual Loops"] ?? 1);
}

describe.skipIf(!TEST_DATABASE_URL)("the servicing job's batches on a seeded PostgreSQL database", () => {
  let database: TestDatabase;
  const pool = () => database.pool!;
  const groups = { servicedToday: 8000, neverServiced: 2500, servicedYesterday: 1200, current: 8000, paidOff: 2000 };
  const candidates = groups.neverServiced + groups.servicedYesterday;

  beforeAll(async () => {
    setConfig(loadConfig({ DATA_DIR: dataDir, APP_SECRET: "p".repeat(48), PWNED_PASSWORDS_URL: "off" }));
    database = await openTestDatabase({ target: "postgres", global: true, poolSize: 2 });
    const db = database.db;
    const users = Array.from({ length: 500 }, (_, i) => ({ id: `plan-borrower-${i}`, name: `Borrower ${i}`, email: `plan.borrower.${i}@example.com`, emailVerified: true }));
    await seedApplicants(db, users);
    // Started 20 days ago: the first installment falls due in 10 days, so servicing one writes
    // nothing but its serviced_on (the reads are what this file measures). next_due_date is what the
    // candidate rule sees: null (unknown), three days past, or 20 days ahead.
    type Shape = { status: "active" | "paid_off"; servicedOn: string | null; nextDueDate: string | null };
    const shapes: Shape[] = [];
    const add = (n: number, shape: (i: number) => Shape) => {
      for (let i = 0; i < n; i++) shapes.push(shape(i));
    };
    add(groups.servicedToday, (i) => ({ status: "active", servicedOn: TODAY, nextDueDate: i % 2 ? null : day(-3) }));
    add(groups.neverServiced, (i) => ({ status: "active", servicedOn: null, nextDueDate: i % 2 ? null : day(-3) }));
    add(groups.servicedYesterday, (i) => ({ status: "active", servicedOn: day(-1), nextDueDate: i % 2 ? null : day(-3) }));
    add(groups.current, () => ({ status: "active", servicedOn: null, nextDueDate: day(20) }));
    add(groups.paidOff, () => ({ status: "paid_off", servicedOn: null, nextDueDate: null }));
    // Shuffled (a fixed permutation), so table order says nothing about the groups.
    const order = shapes.map((_, i) => i).sort((a, b) => ((a * 7919) % 9973) - ((b * 7919) % 9973) || a - b);
    for (let start = 0; start < order.length; start += 1000) {
      const chunk = order.slice(start, start + 1000);
      const apps = await db
        .insert(loanApplications)
        .values(chunk.map((i) => applicationRow(users[i % users.length]!.id, { status: "approved", reviewedAt: new Date(`${day(-21)}T15:00:00Z`) })))
        .returning({ id: loanApplications.id, userId: loanApplications.userId });
      await db.insert(approvedLoans).values(
        chunk.map((i, k) => ({
          userId: apps[k]!.userId,
          applicationId: apps[k]!.id,
          obligorName: "Ann Applicant",
          ...shapes[i]!,
          balanceCents: 1_000_000,
          termMonths: 12,
          amountCents: 1_000_000,
          noteRateMilli: 12_000,
          paymentCents: 88_849,
          startDate: day(-20),
          servicingTerms: servicingTermsFrom(getConfig().lateFeePolicy),
        })),
      );
    }
    // Six posted payments and a pending one on each current loan: what the ledger read orders.
    await pool().query(`
      insert into loan_payments (loan_id, user_id, amount_cents, status, method, source, reference, received_on, created_at)
        select l.id, l.user_id, 88849, 'posted', 'check', 'staff', 'CHK-' || k, l.start_date - (7 - k) * 30, now() - (7 - k) * interval '30 days'
        from approved_loans l, generate_series(1, 6) k where l.next_due_date = '${day(20)}';
      insert into loan_payments (loan_id, user_id, amount_cents, status, method, source, reference, created_at)
        select l.id, l.user_id, 88849, 'pending', 'check', 'staff', 'CHK-PENDING', now() from approved_loans l where l.next_due_date = '${day(20)}'`);
    // What autovacuum does in production: statistics, and the visibility map index-only scans rely on.
    await pool().query("vacuum analyze");
  }, 600_000);
  afterAll(() => database?.cleanup());

  /**
   * Runs the job with `batchSize`, EXPLAIN ANALYZing each candidate read on the job's own connection
   * just before it runs: the plan of batch k is the one batch k got.
   */
  async function runMeasured(batchSize: number) {
    const reads: { text: string; plan: PlanNode }[] = [];
    const instrumented = new WeakSet<object>();
    const connect = pool().connect.bind(pool()) as () => Promise<PoolClient>;
    const restore = pool().connect;
    type Done = (error: Error | undefined, client?: PoolClient, release?: () => void) => void;
    const instrumentedConnect = async () => {
      const client = await connect();
      if (!instrumented.has(client)) {
        instrumented.add(client);
        const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
        (client as unknown as { query: (...args: unknown[]) => Promise<unknown> }).query = async (...args: unknown[]) => {
          const [first, second] = args;
          const config = typeof first === "string" ? { text: first } : (first as { text: string; values?: unknown[] });
          if (/^select .* from "approved_loans" .*"serviced_on"/is.test(config.text)) {
            const values = config.values ?? (second as unknown[] | undefined) ?? [];
            const explained = (await query(`explain (analyze, format json) ${config.text}`, values)) as { rows: { "QUERY PLAN": [{ Plan: PlanNode }] }[] };
            reads.push({ text: config.text, plan: explained.rows[0]!["QUERY PLAN"][0].Plan });
          }
          return query(...args);
        };
      }
      return client;
    };
    // pg's Pool.query checks a client out with a callback; transactions await the promise.
    (pool() as unknown as { connect: (done?: Done) => Promise<PoolClient> | undefined }).connect = (done?: Done) => {
      if (!done) return instrumentedConnect();
      instrumentedConnect().then(
        (client) => done(undefined, client, () => client.release()),
        (error: Error) => done(error),
      );
      return undefined;
    };
    try {
      const result = await runServicingJobs(database.db, at, { batchSize });
      return { result, reads };
    } finally {
      (pool() as unknown as { connect: typeof restore }).connect = restore;
    }
  }

  /** Every approved_loans scan of every read: by the servicing index, at most `most` rows looked at. */
  function expectEachReadBounded(reads: { text: string; plan: PlanNode }[], most: number) {
    const problems: string[] = [];
    for (const [k, read] of reads.entries()) {
      for (const node of scans(read.plan)) {
        if (node["Relation Name"] !== "approved_loans") continue;
        if (node["Index Name"] !== "approved_loans_servicing_idx") problems.push(`read ${k}: ${node["Node Type"]} on ${node["Index Name"] ?? "the table"}`);
        if (rowsLookedAt(node) > most) problems.push(`read ${k}: ${rowsLookedAt(node)} loans looked at, more than ${most}`);
      }
      for (const node of nodes(read.plan)) if (node["Node Type"] === "Sort") problems.push(`read ${k}: a Sort (the index order was not used)`);
    }
    expect(problems).toEqual([]);
  }

  it("each batch reads one batch of index entries, the last as the first, after 8,000 loans were serviced today", async () => {
    const batch = 100;
    const { result, reads } = await runMeasured(batch);
    expect(result).toMatchObject({ ran: true, loans: candidates });
    // A batch is one read, or two where one range ends and the next begins (three ranges: never
    // looked at, looked at before today, stamped after today), and one more read finding the end.
    expect(reads.length).toBeGreaterThanOrEqual(Math.ceil(candidates / batch));
    expect(reads.length).toBeLessThanOrEqual(Math.ceil(candidates / batch) + 4);
    // Per read: a batch of loans (and the one-row joins per loan), however many batches came before.
    expectEachReadBounded(reads, batch);
    // The loans a late batch hands up are a batch, as the first one's.
    const handedUp = reads.map((r) => Math.max(...scans(r.plan).filter((n) => n["Relation Name"] === "approved_loans").map(rowsLookedAt)));
    expect(handedUp[0]).toBe(batch);
    expect(handedUp[Math.floor(groups.neverServiced / batch) - 1]).toBe(batch);
    const { n } = (await pool().query<{ n: number }>(`select count(*)::int as n from approved_loans where serviced_on = '${TODAY}'`)).rows[0]!;
    expect(n).toBe(groups.servicedToday + candidates);

    // The next hourly run the same day: nothing to do, and it reads nothing to find that out (before,
    // its first read walked every loan due and dropped each one by its serviced_on).
    const again = await runMeasured(batch);
    expect(again.result).toMatchObject({ ran: true, loans: 0 });
    expectEachReadBounded(again.reads, 0);
  });

  it("the ledger read: a loan's posted payments in order from loan_payments_ledger_idx, no sort", async () => {
    const { id } = (await pool().query<{ id: string }>(`select id from approved_loans where next_due_date = '${day(20)}' order by id limit 1`)).rows[0]!;
    const plans = captureStatements(pool());
    const { result, statements } = await plans.capture(() => ledgerRows(id, database.db));
    expect(result.payments).toHaveLength(6);
    expect(result.payments.map((p) => p.receivedOn)).toEqual([...result.payments.map((p) => p.receivedOn)].sort());
    const payments = statements.find((s) => /from "loan_payments"/.test(s.text))!;
    const plan = await planOf(pool(), payments);
    expect(nodes(plan).filter((n) => n["Node Type"] === "Sort")).toEqual([]);
    const [scan] = scans(plan);
    expect(scan!["Index Name"]).toBe("loan_payments_ledger_idx");
    // The loan's six posted payments, not its pending one, nor any other loan's.
    expect(rowsLookedAt(scan!)).toBe(6);
  });
  it("the autopay step reads only the authorisations due, from autopay_authorizations_queue_idx, no sort", async () => {
    // One account per loan's application, then an authorisation for every active loan: ended ones (no
    // queue day) and active ones whose queue day is a month away; none is due today.
    await pool().query(`
      insert into bank_accounts (user_id, application_id, account_holder_name, bank_name, account_number, routing_number, account_number_last4, routing_number_last2)
        select l.user_id, l.application_id, 'Ann Applicant', 'Plan Bank', 'sealed', 'sealed', '1234', '21' from approved_loans l where l.status = 'active';
      insert into autopay_authorizations (loan_id, user_id, bank_account_id, amount_kind, days_before_due, status, text_version, next_queue_on, ended_at)
        select l.id, l.user_id, b.id, 'installment', 0, case when row_number() over (order by l.id) % 2 = 0 then 'active' else 'cancelled' end, 'plan-1',
          case when row_number() over (order by l.id) % 2 = 0 then '${day(30)}'::date end, case when row_number() over (order by l.id) % 2 = 0 then null else now() end
        from approved_loans l join bank_accounts b on b.application_id = l.application_id where l.status = 'active';
      analyze autopay_authorizations`);
    const plans = captureStatements(pool());
    const { result, statements } = await plans.capture(() => queueAutopayDebits(database.db, TODAY, at));
    expect(result).toBe(0);
    const read = statements.find((s) => /from "autopay_authorizations"/.test(s.text))!;
    const plan = await planOf(pool(), read);
    expect(nodes(plan).filter((n) => n["Node Type"] === "Sort")).toEqual([]);
    const [scan] = scans(plan);
    expect(scan!["Index Name"]).toBe("autopay_authorizations_queue_idx");
    expect(rowsLookedAt(scan!)).toBe(0);
  });
});
