import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REVIEW_PAGE_SIZE, REVIEW_TABS } from "~/domain/validation/review";
import { listApplicationsForAdmin } from "~/server/applications/staff-applications.server";
import { loadAdminApplication } from "~/server/applications/staff-application-page.server";
import { DOCUMENTS_PAGE_SIZE, listDocuments } from "~/server/applications/documents.server";
import { listContactMessages, MESSAGES_PAGE_SIZE } from "~/server/public-site/contact-inbox.server";
import { encodeCursor } from "~/server/platform/db/paging.server";
import { loadMonitoring } from "~/server/staff/monitoring.server";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import { servicingTermsFrom } from "~/domain/servicing-terms";
import { getConfig, loadConfig, setConfig } from "~/server/platform/config.server";
import { markConversationRead, totalUnread } from "~/server/conversation/messages.server";
import { getDashboard } from "~/server/applications/dashboard.server";
import { applicationsCsvStream, auditCsvStream } from "~/server/staff/exports.server";
import { straddlingMedian } from "~/server/applications/report-figures.server";
import { viewPipelineReport } from "~/server/staff/pipeline-report.server";
import { REG_B_LIST_SCOPE, REG_B_PAGE_SIZE } from "~/server/applications/reg-b-list.server";
import { loadAchPage } from "~/server/loans/ach-batches.server";
import { loadBorrowerLoan } from "~/server/loans/borrower-loan.server";
import { listLoans, loadStaffLoan, LOANS_PAGE_SIZE } from "~/server/loans/staff-loans.server";
import { seedScale, type ScaleSeedResult } from "../../bench/seed-scale";
import { referencePipelineReport } from "../helpers/pipeline-reference";
import { captureStatements, expectBounded, planOf, rowsRead, scans, type StatementCapture } from "../helpers/query-plans";
import { openTestDatabase, TEST_DATABASE_URL, type TestDatabase } from "../helpers/test-db";
import { scratchDirs } from "../helpers/scratch-dirs";

/**
 * Issue 24: every signed-in list and page at scale. On a seeded lender's database (tens of thousands
 * of applications, their documents, messages, timeline, offers, loans with payments, contact messages
 * and audit rows, ANALYZEd), each page's statements are captured as the real code runs and
 * EXPLAIN ANALYZEd: no sequential scan of a growing table, and no scan handing up more than a page's
 * worth of rows (what catches OFFSET on a deep page and a count over a range that grows with the
 * business). PostgreSQL only: the planner's choices there are the ones production gets.
 */

const PASSWORD = "Str0ng!Passw0rd";
/** Rows one page view may read from any one scan: a page, its joins, a bounded rollup. */
const PAGE_ROWS = 1000;
/** The loans list's kept counts (decision 0096): one row per due day of the loans not paid off, bounded by the calendar. */
const DUE_DAY_KEYS = { row_counts: 400 };

const dataDir = scratchDirs("portal-page-plans-")();

describe.skipIf(!TEST_DATABASE_URL)("every signed-in page on a seeded PostgreSQL database", () => {
  let database: TestDatabase;
  let seeded: ScaleSeedResult;
  let plans: StatementCapture;
  let staff: AuditActor;
  const pool = () => database.pool!;
  const one = async <T>(text: string): Promise<T> => (await pool().query(text)).rows[0] as T;

  beforeAll(async () => {
    setConfig(loadConfig({ DATA_DIR: dataDir, APP_SECRET: "s".repeat(48), PWNED_PASSWORDS_URL: "off" }));
    database = await openTestDatabase({ target: "postgres", global: true, poolSize: 2 });
    seeded = await seedScale(database, { applicants: 4000, applications: 24000, admins: 3, password: PASSWORD });
    staff = seeded.admins[0]!;
    // What seedScale does not make yet, in plain SQL: a third of the applications in the first
    // admin's queue, messages and timeline entries, offers, payments, contact messages, audit rows.
    await database.db.execute(sql.raw(`
      update loan_applications set assigned_to = '${staff.id}' where ('x' || substr(md5(id::text), 1, 6))::bit(24)::int % 3 = 0;
      insert into application_messages (application_id, user_id, author_id, author_side, body, created_at)
        select a.id, a.user_id, case when k % 2 = 0 then a.user_id else '${staff.id}' end, case when k % 2 = 0 then 'applicant' else 'staff' end,
               'Message ' || k, a.submitted_at + k * interval '1 hour'
        from loan_applications a, generate_series(1, 3) k;
      insert into application_events (application_id, user_id, kind, actor_side, summary, created_at)
        select a.id, a.user_id, (array['submitted', 'review_started', 'message'])[k], 'staff', 'Event ' || k, a.submitted_at + k * interval '1 hour'
        from loan_applications a, generate_series(1, 3) k;
      insert into loan_payments (loan_id, user_id, amount_cents, status, method, source, reference, received_on, created_at)
        select l.id, l.user_id, greatest(l.payment_cents, 1), 'posted', 'check', 'staff', 'CHK-' || k, l.start_date + k * 30, l.approval_date + k * interval '30 days'
        from approved_loans l, generate_series(1, 6) k
        where l.start_date + k * 30 < (now() at time zone 'utc')::date;
      insert into loan_offers (application_id, user_id, status, is_counteroffer, amount_cents, note_rate_milli, term_months, origination_fee_milli,
                               origination_fee_cents, amount_financed_cents, payment_cents, final_payment_cents, finance_charge_cents,
                               total_of_payments_cents, apr_milli, servicing_terms, expires_at, created_at, decided_at)
        select a.id, a.user_id, case when a.status = 'approved' then 'signed' else 'expired' end, false, 1000000, 9000, 36, 1000,
               10000, 990000, 31800, 31800, 154800, 1144800, 9990, '${JSON.stringify(servicingTermsFrom(getConfig().lateFeePolicy))}'::jsonb,
               a.submitted_at + interval '30 days', a.submitted_at + interval '1 day', a.submitted_at + interval '2 days'
        from loan_applications a where a.status in ('approved', 'denied');
      insert into request_items (request_id, application_id, user_id, kind, note, due_date, status, created_at)
        select gen_random_uuid(), a.id, a.user_id, 'question', 'Tell us more', (a.submitted_at + interval '10 days')::date,
               case when ('x' || substr(md5(a.id::text), 7, 2))::bit(8)::int % 2 = 0 then 'requested' else 'accepted' end, a.submitted_at + interval '1 day'
        from loan_applications a where a.status in ('pending', 'under_review', 'denied');
      insert into contact_messages (name, email, subject, message, status, created_at)
        select 'Visitor ' || i, 'visitor' || i || '@example.com', 'Question ' || i, 'Hello', (array['new', 'read', 'archived'])[1 + i % 3],
               now() - i * interval '17 minutes'
        from generate_series(1, 30000) i;
      -- Restored-from-backup shape (row_hash set): the seal trigger leaves them alone.
      insert into audit_log (actor_id, actor_name, actor_email, action, table_name, record_id, details, created_at, row_hash)
        select case when i % 5 = 0 then null else '${staff.id}' end, 'Seeded Staff', 'staff@example.com', 'applications.list', 'loan_applications', null,
               '{}'::jsonb, now() - i * interval '5 minutes', 'seeded'
        from generate_series(1, 150000) i;
    `));
    // What autovacuum does in production: statistics, and the visibility map index-only scans rely on.
    await pool().query("vacuum analyze");
    plans = captureStatements(pool());
  }, 600_000);
  afterAll(() => database?.cleanup());

  const request = { ip: "203.0.113.8", userAgent: "plans" };

  /**
   * A token to the middle of a list, as a reviewer reaches it by Next: the key (as PostgreSQL prints it)
   * of the row half way down, read directly.
   */
  async function middleToken(scope: string, from: string, keys: string[], order: string, total: number, pageSize: number): Promise<string> {
    const half = Math.floor(total / 2);
    const row = await one<Record<string, string | null>>(`select ${keys.map((k, i) => `${k}::text as k${i}`).join(", ")} from ${from} order by ${order} offset ${half} limit 1`);
    return encodeCursor({ scope, page: Math.floor(half / pageSize) + 1, key: keys.map((_, i) => row[`k${i}`] ?? null) });
  }

  it("the admin list: every tab at its first page, a middle page by Next and Previous, and its last page; My Queue; bounded however deep", async () => {
    for (const mine of [false, true]) {
      for (const tab of REVIEW_TABS) {
        const where = `loan_applications where status = '${tab}'${mine ? ` and assigned_to = '${staff.id}'` : ""}`;
        const total = mine ? (await one<{ n: number }>(`select count(*)::int as n from ${where}`)).n : seeded.byStatus[tab];
        const pageCount = Math.max(1, Math.ceil(total / REVIEW_PAGE_SIZE));
        const middle = await middleToken(`${mine ? "queue" : "applications"}:${tab}`, where, ["submitted_at", "id"], "submitted_at desc, id desc", total, REVIEW_PAGE_SIZE);
        const views = [
          { ask: { page: 1 }, page: 1 },
          { ask: { after: middle }, page: null },
          { ask: { before: middle }, page: null },
          { ask: { last: true }, page: pageCount },
          // An old bookmark past the end: the last page, read backwards, not by OFFSET.
          { ask: { page: 999_999 }, page: pageCount },
        ];
        for (const view of views) {
          const { result, statements } = await plans.capture(() => listApplicationsForAdmin({ tab, mine, ...view.ask }, { actor: staff, request }, database.db));
          if (view.page !== null) expect(result.page).toBe(view.page);
          else expect(result.applications.length).toBe(Math.min(REVIEW_PAGE_SIZE, total));
          expect(result.counts[tab]).toBe(total);
          expect(result.applications.every((a) => a.status === tab)).toBe(true);
          // Rows fetched and joined: one page's worth; index entries: one page (and the one after it),
          // however deep (decision 0050; with OFFSET the last page read the whole tab's entries).
          await expectBounded(pool(), statements, { rows: REVIEW_PAGE_SIZE * 4, indexEntries: REVIEW_PAGE_SIZE + 1 });
        }
      }
    }
  });

  it("an application's page: the card, documents, messages, timeline, offers, by index", async () => {
    const { id } = await one<{ id: string }>(`select application_id as id from approved_loans order by id limit 1`);
    const { result, statements } = await plans.capture(() => loadAdminApplication(id, { actor: staff, request }, database.db));
    expect(result?.summary.id).toBe(id);
    await expectBounded(pool(), statements, { rows: PAGE_ROWS });
  });

  it("the dashboard and the applicant's loan page: the owner's rows only, by index", async () => {
    const most = Math.max(...seeded.applicationsPerApplicant);
    const applicant = seeded.applicants[seeded.applicationsPerApplicant.indexOf(most)]!;
    const dashboard = await plans.capture(() => getDashboard(applicant.id, applicant.name, database.db));
    expect(dashboard.result.applications.length).toBeGreaterThan(0);
    await expectBounded(pool(), dashboard.statements, { rows: PAGE_ROWS });

    const loan = await one<{ id: string; user_id: string }>(`select l.id, l.user_id from approved_loans l where exists (select 1 from loan_payments p where p.loan_id = l.id) order by l.id limit 1`);
    const borrower = { id: loan.user_id, name: "Borrower", email: "b@example.com", isStaff: false };
    const page = await plans.capture(() => loadBorrowerLoan(loan.id, { actor: borrower, request }, database.db));
    expect(page.result).not.toBeNull();
    await expectBounded(pool(), page.statements, { rows: PAGE_ROWS });
  });

  it("the staff loans list (each filter, first and last page) and a staff loan page", async () => {
    for (const filter of ["all", "current", "late", "paid_in_full"] as const) {
      const first = await plans.capture(() => listLoans({ filter, q: "", page: 1 }, { actor: staff, request }, database.db));
      const where = {
        all: "true",
        current: "status <> 'paid_off' and (next_due_date is null or next_due_date >= (now() at time zone 'utc')::date)",
        late: "status <> 'paid_off' and next_due_date < (now() at time zone 'utc')::date",
        paid_in_full: "status = 'paid_off'",
      }[filter];
      const direct = await one<{ n: number }>(`select count(*)::int as n from approved_loans where ${where}`);
      expect(first.result.total).toBe(direct.n);
      // The count is a handful of kept rows (one per due date at most), not a count of the loans.
      await expectBounded(pool(), first.statements, { rows: LOANS_PAGE_SIZE * 4, rowsOf: DUE_DAY_KEYS });
      const lastPage = first.result.pageCount;
      const last = await plans.capture(() => listLoans({ filter, q: "", last: true }, { actor: staff, request }, database.db));
      expect(last.result.page).toBe(lastPage);
      expect(last.result.loans).toHaveLength(first.result.total - (lastPage - 1) * LOANS_PAGE_SIZE);
      // The last page and a middle one by token (decision 0050): the order's column ranges (due date
      // ties, NULLs), each read for at most a page, so a few pages of entries however deep.
      if (direct.n === 0) continue;
      const middle = await middleToken(`loans:${filter}`, `approved_loans where ${where}`, ["next_due_date", "approval_date", "id"], "next_due_date asc nulls last, approval_date desc, id asc", direct.n, LOANS_PAGE_SIZE);
      const deep = await plans.capture(() => listLoans({ filter, q: "", after: middle }, { actor: staff, request }, database.db));
      expect(deep.result.loans.length).toBeGreaterThan(0);
      const back = await plans.capture(() => listLoans({ filter, q: "", before: middle }, { actor: staff, request }, database.db));
      for (const view of [last, deep, back]) await expectBounded(pool(), view.statements, { rows: LOANS_PAGE_SIZE * 4 * 4, indexEntries: LOANS_PAGE_SIZE * 4 * 4, rowsOf: DUE_DAY_KEYS });
    }
    // Search (decision 0051): the borrower's name, e-mail or the loan reference by index ranges; the
    // matches are counted exactly. Before: ILIKE '%…%', a sequential scan of the loans, applications,
    // users and profiles.
    const borrower = await one<{ full_name: string; email: string; offer_id: string | null; id: string }>(
      `select p.full_name, p.email, l.offer_id, l.id from approved_loans l join profiles p on p.id = l.user_id order by l.id limit 1`,
    );
    const lastWord = borrower.full_name.split(" ").at(-1)!;
    const searches: [string, string][] = [
      [borrower.full_name.toUpperCase(), `lower(p.full_name) like lower('${borrower.full_name}') || '%'`],
      [borrower.email, `lower(p.email) like lower('${borrower.email}') || '%'`],
      [borrower.email.slice(0, borrower.email.indexOf("@") + 1), `lower(p.email) like lower('${borrower.email.slice(0, borrower.email.indexOf("@") + 1)}') || '%'`],
      [lastWord, `lower(p.full_name) like lower('${lastWord}') || '%' or lower(regexp_replace(p.full_name, '^.*[[:space:]]', '')) like lower('${lastWord}') || '%' or lower(p.email) like lower('${lastWord}') || '%'`],
      [`LN-${(borrower.offer_id ?? borrower.id).slice(0, 8).toUpperCase()}`, `coalesce(l.offer_id, l.id)::text like '${(borrower.offer_id ?? borrower.id).slice(0, 8)}%' or l.id::text like '${(borrower.offer_id ?? borrower.id).slice(0, 8)}%'`],
    ];
    for (const [q, matches] of searches) {
      const direct = await one<{ n: number }>(`select count(*)::int as n from approved_loans l join profiles p on p.id = l.user_id where ${matches}`);
      const firstPage = (
        await pool().query<{ id: string }>(
          `select l.id from approved_loans l join profiles p on p.id = l.user_id where ${matches} order by l.next_due_date asc nulls last, l.approval_date desc, l.id limit ${LOANS_PAGE_SIZE}`,
        )
      ).rows.map((r) => r.id);
      const searched = await plans.capture(() => listLoans({ filter: "all", q, page: 1 }, { actor: staff, request }, database.db));
      expect(searched.result.total, q).toBe(direct.n);
      expect(searched.result.total, q).toBeGreaterThan(0);
      expect(searched.result.loans.map((l) => l.id), q).toEqual(firstPage);
      // Rows: the matches (a surname shared by a few hundred borrowers), never the loans or borrowers.
      await expectBounded(pool(), searched.statements, { rows: Math.max(LOANS_PAGE_SIZE * 4, direct.n * 2), rowsOf: DUE_DAY_KEYS });
    }
    const { id } = await one<{ id: string }>(`select loan_id as id from loan_payments order by loan_id limit 1`);
    const loan = await plans.capture(() => loadStaffLoan(id, { actor: staff, request }, database.db));
    expect(loan.result).not.toBeNull();
    await expectBounded(pool(), loan.statements, { rows: PAGE_ROWS });
  });

  it("the reports page: rollups, edge days and the Reg B list off indexes, whatever the range; the median from bucket counts (decisions 0049, 0055)", async () => {
    const now = new Date();
    const today = now.toISOString().slice(0, 10);
    const ranges = [
      { from: new Date(now.getTime() - 89 * 86_400_000).toISOString().slice(0, 10), to: today },
      { from: new Date(now.getTime() - 730 * 86_400_000).toISOString().slice(0, 10), to: today },
      { from: new Date(now.getTime() - (5 * 366 - 1) * 86_400_000).toISOString().slice(0, 10), to: today },
    ];
    for (const range of ranges) {
      const { result, statements } = await plans.capture(() => viewPipelineReport(range, { actor: staff, request }, {}, database.db, now));
      // Every figure as issue 22's direct aggregates over the whole range give it.
      expect(result).toEqual(await referencePipelineReport(range, database.db, now));
      expect(result.regB.count).toBeGreaterThan(0);
      // No statement reads more than a page's worth of rows, a two-year or five-year range included:
      // month and edge-day rollups, a day's applications at each ageing cut and at the Reg B cut, the
      // Reg B list's first page, and the median's bucket counts.
      await expectBounded(pool(), statements, { rows: PAGE_ROWS });
      const decided = (await one<{ n: number }>(
        `select count(*)::int as n from loan_applications where status in ('approved', 'denied', 'incomplete') and reviewed_at is not null and submitted_at >= '${range.from}' and submitted_at < '${range.to}'::date + 1`,
      )).n;
      expect(result.medianDecision.decisions).toBe(decided);
      expect(decided).toBeGreaterThan(PAGE_ROWS);
      // The median (decision 0055): whole-day counts, then the tenths of the whole days holding the
      // middle, from report_rollups alone; before, percentile_cont read all `decided` index entries.
      const median = statements.filter((s) => s.values.includes("decision_days"));
      expect(median).toHaveLength(1);
      const medianScans = scans(await planOf(pool(), median[0]!));
      expect(new Set(medianScans.map((n) => n["Relation Name"]))).toEqual(new Set(["report_rollups"]));
      expect(medianScans.reduce((sum, n) => sum + rowsRead(n), 0)).toBeLessThanOrEqual(PAGE_ROWS);

      // When the two middles straddle two buckets, their exact durations: the first entry in the range
      // from each bucket's edge of loan_applications_decision_days_idx, never the range's decisions.
      // (The seed's decisions take whole days, so '2.0' and '3.0' are full buckets of every range.)
      const straddle = await plans.capture(() => straddlingMedian(range, "2.0", "3.0", database.db));
      expect(straddle.result).toBe("2.5");
      expect(straddle.statements).toHaveLength(1);
      const straddleScans = scans(await planOf(pool(), straddle.statements[0]!));
      expect(straddleScans.map((n) => [n["Index Name"], rowsRead(n)])).toEqual([
        ["loan_applications_decision_days_idx", 1],
        ["loan_applications_decision_days_idx", 1],
      ]);
      // And the range is checked in the index (no table row fetched to be thrown away).
      expect(straddleScans.every((n) => /submitted_at/.test((n as { "Index Cond"?: string })["Index Cond"] ?? ""))).toBe(true);
    }
  });

  it("the reports page's Reg B list in pages: Next, Previous and Last each read a page of loan_applications_reg_b_idx, never the table", async () => {
    const now = new Date();
    const range = { from: new Date(now.getTime() - 89 * 86_400_000).toISOString().slice(0, 10), to: now.toISOString().slice(0, 10) };
    const cutoff = new Date(now.getTime() - 25 * 86_400_000).toISOString();
    const flagged = `loan_applications where status in ('pending', 'under_review') and complete_since <= '${cutoff}'::timestamptz`;
    const total = (await one<{ n: number }>(`select count(*)::int as n from ${flagged}`)).n;
    const pageCount = Math.ceil(total / REG_B_PAGE_SIZE);
    expect(pageCount).toBeGreaterThan(4);
    const middle = await middleToken(REG_B_LIST_SCOPE, flagged, ["complete_since", "id"], "complete_since, id", total, REG_B_PAGE_SIZE);
    const half = Math.floor(total / 2);
    const idsAt = async (offset: number, limit: number) =>
      (await pool().query<{ id: string }>(`select id from ${flagged} order by complete_since, id offset ${offset} limit ${limit}`)).rows.map((r) => r.id);
    const views = [
      { name: "Next", ask: { after: middle }, ids: await idsAt(half + 1, REG_B_PAGE_SIZE) },
      { name: "Previous", ask: { before: middle }, ids: await idsAt(half - REG_B_PAGE_SIZE, REG_B_PAGE_SIZE) },
      { name: "Last", ask: { last: true as const }, ids: await idsAt((pageCount - 1) * REG_B_PAGE_SIZE, total) },
    ];
    for (const view of views) {
      const { result, statements } = await plans.capture(() => viewPipelineReport(range, { actor: staff, request }, view.ask, database.db, now));
      expect(result.regB.count, view.name).toBe(total);
      expect(result.regB.items.map((i) => i.id), view.name).toEqual(view.ids);
      if (view.name === "Last") expect(result.regB.page).toBe(pageCount);
      await expectBounded(pool(), statements, { rows: PAGE_ROWS });
      // The page's keys: off the list's partial index alone, a page (and the row beyond it) of entries.
      const keyed = statements.filter((s) => /"complete_since"::text as k0/.test(s.text));
      expect(keyed, view.name).toHaveLength(1);
      const keyScans = scans(await planOf(pool(), keyed[0]!));
      expect(keyScans.length, view.name).toBeGreaterThan(0);
      for (const node of keyScans) {
        expect(node["Node Type"], view.name).not.toBe("Seq Scan");
        expect(node["Index Name"], view.name).toBe("loan_applications_reg_b_idx");
        expect(rowsRead(node), view.name).toBeLessThanOrEqual(REG_B_PAGE_SIZE + 1);
      }
      // And the page's rows by primary key: no statement of the page reads loan_applications sequentially.
      for (const statement of statements) {
        const seq = scans(await planOf(pool(), statement)).filter((n) => n["Relation Name"] === "loan_applications" && n["Node Type"] === "Seq Scan");
        expect(seq, `${view.name}: ${statement.text}`).toEqual([]);
      }
    }
  });

  it("the audit log page (monitoring): hourly rollups and at most an hour of entries, whatever the range", async () => {
    // 3,000 entries written by one statement share one instant (now()): the latest 50 are still read
    // as 50 index entries (decision 0051; with an index on created_at alone, all 3,000 were sorted).
    await pool().query(`insert into audit_log (actor_id, actor_name, actor_email, action, table_name, details, created_at, row_hash)
      select '${staff.id}', 'Seeded Staff', 'staff@example.com', 'applications.list', 'loan_applications', '{}'::jsonb, now() - interval '2 minutes', 'seeded'
      from generate_series(1, 3000)`);
    for (const hours of [6, 24, 72, 168] as const) {
      const inRange = (await one<{ n: number }>(`select count(*)::int as n from audit_log where created_at >= now() - interval '${hours} hours'`)).n;
      const { result, statements } = await plans.capture(() => loadMonitoring(hours, database.db));
      expect(result.ok).toBe(true);
      if (result.ok) {
        expect(result.totalInRange).toBe(inRange);
        const staffRows = (await one<{ n: number }>(`select count(*)::int as n from audit_log where created_at >= now() - interval '${hours} hours' and actor_id = '${staff.id}'`)).n;
        expect(result.summary.find((s) => s.adminId === staff.id)?.actionCount).toBe(staffRows);
      }
      // The seed writes an entry every 5 minutes for 17 months: the rollups hold 25,000 rows, a range reads hours × actors of them.
      await expectBounded(pool(), statements, { rows: PAGE_ROWS });
      // The planner knows the raw part is an hour: bounds joined from a subquery were estimated as a
      // ninth of the log, which at a million entries priced the page past jit_above_cost (decision 0051).
      for (const statement of statements.filter((s) => s.text.includes("audit_activity_hourly"))) {
        const estimated = scans(await planOf(pool(), statement)).filter((n) => n["Relation Name"] === "audit_log").map((n) => (n as { "Plan Rows"?: number })["Plan Rows"] ?? 0);
        expect(Math.max(0, ...estimated), statement.text).toBeLessThanOrEqual(PAGE_ROWS);
      }
    }
  });

  it("the contact messages, documents and ACH pages: first and last page, bounded", async () => {
    for (const view of ["inbox", "archived"] as const) {
      const first = await plans.capture(() => listContactMessages({ view, page: 1 }, { actor: staff, request }, database.db));
      const direct = await one<{ n: number; unread: number }>(
        `select count(*) filter (where status ${view === "archived" ? "=" : "<>"} 'archived')::int as n, count(*) filter (where status = 'new')::int as unread from contact_messages`,
      );
      expect([first.result.total, first.result.unread]).toEqual([direct.n, direct.unread]);
      await expectBounded(pool(), first.statements, { rows: PAGE_ROWS });
      const last = await plans.capture(() => listContactMessages({ view, last: true }, { actor: staff, request }, database.db));
      expect(last.result.page).toBe(first.result.pageCount);
      const middle = await middleToken(`messages:${view}`, `contact_messages where status ${view === "archived" ? "=" : "<>"} 'archived'`, ["created_at", "id"], "created_at desc, id desc", direct.n, MESSAGES_PAGE_SIZE);
      const deep = await plans.capture(() => listContactMessages({ view, after: middle }, { actor: staff, request }, database.db));
      expect(deep.result.items).toHaveLength(MESSAGES_PAGE_SIZE);
      // The last page and a middle one by token: a page of entries (both views share one index, so
      // the other view's entries in between are read and filtered: a third of them here), however deep.
      for (const view of [last, deep]) await expectBounded(pool(), view.statements, { rows: PAGE_ROWS, indexEntries: MESSAGES_PAGE_SIZE * 3 });
    }
    const documents = await plans.capture(() => listDocuments({ page: 1 }, { actor: staff, request }, database.db));
    expect(documents.result.total).toBe((await one<{ n: number }>(`select count(*)::int as n from loan_documents`)).n);
    await expectBounded(pool(), documents.statements, { rows: PAGE_ROWS });
    const lastDocuments = await plans.capture(() => listDocuments({ last: true }, { actor: staff, request }, database.db));
    expect(lastDocuments.result.page).toBe(documents.result.pageCount);
    const middleDocument = await middleToken("documents", "loan_documents", ["uploaded_at", "application_id", "document_type", "id"], "uploaded_at desc, application_id, document_type, id", documents.result.total, DOCUMENTS_PAGE_SIZE);
    const deepDocuments = await plans.capture(() => listDocuments({ after: middleDocument }, { actor: staff, request }, database.db));
    expect(deepDocuments.result.documents).toHaveLength(DOCUMENTS_PAGE_SIZE);
    // Four key columns, four ranges, each read for at most a page: a few pages of entries however deep.
    for (const view of [lastDocuments, deepDocuments]) await expectBounded(pool(), view.statements, { rows: PAGE_ROWS, indexEntries: (DOCUMENTS_PAGE_SIZE + 1) * 4 });
    const client = seeded.applicants[0]!;
    const ofClient = await plans.capture(() => listDocuments({ page: 1, clientId: client.id }, { actor: staff, request }, database.db));
    expect(ofClient.result.documents.length).toBeGreaterThan(0);
    await expectBounded(pool(), ofClient.statements, { rows: PAGE_ROWS });
    const ach = await plans.capture(() => loadAchPage(database.db));
    await expectBounded(pool(), ach.statements, { rows: PAGE_ROWS });
  });

  it("the exports stream in index order with a keyset: each batch reads one batch of rows", async () => {
    const range = { from: new Date(Date.now() - 729 * 86_400_000).toISOString().slice(0, 10), to: new Date().toISOString().slice(0, 10) };
    const batch = 200;
    async function threeBatches(stream: ReadableStream<Uint8Array>): Promise<number> {
      const reader = stream.getReader();
      let lines = 0;
      for (let i = 0; i < 4; i++) {
        const { value, done } = await reader.read();
        if (done) break;
        lines += new TextDecoder().decode(value).split("\n").length - 1;
      }
      await reader.cancel();
      return lines;
    }
    const applications = await plans.capture(() => threeBatches(applicationsCsvStream(range, database.db, batch)));
    expect(applications.result).toBe(1 + 3 * batch);
    expect(applications.statements.every((s) => !/\boffset\b/i.test(s.text))).toBe(true);
    await expectBounded(pool(), applications.statements, { rows: batch + 1 });
    const audit = await plans.capture(async () => threeBatches(await auditCsvStream(range, database.db, batch)));
    expect(audit.result).toBe(1 + 3 * batch);
    expect(audit.statements.every((s) => !/\boffset\b/i.test(s.text))).toBe(true);
    await expectBounded(pool(), audit.statements, { rows: batch + 1 });

    // A recent, short range: the first batch starts inside the index, not at the oldest row.
    const lastWeek = { from: new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10), to: new Date().toISOString().slice(0, 10) };
    const recentAudit = await plans.capture(async () => threeBatches(await auditCsvStream(lastWeek, database.db, batch)));
    expect(recentAudit.result).toBe(1 + 3 * batch);
    // Id (chain) order between the week's smallest and largest id, read from the hourly rollups
    // (decision 0051): each batch reads one batch off the primary key. Before, each batch read the
    // rest of the week by created_at and sorted it (2,000 rows and more for a 200-row batch).
    // The rollup read is the week's hours × actors (the seed has at most four: three admins and the system).
    await expectBounded(pool(), recentAudit.statements, { rows: Math.max(batch + 1, 24 * 7 * 4) });
    const recentApplications = await plans.capture(() => threeBatches(applicationsCsvStream(lastWeek, database.db, 20)));
    expect(recentApplications.result).toBeGreaterThan(1);
    await expectBounded(pool(), recentApplications.statements, { rows: 21 });
  });
  it("the site header's unread badges: two rows for staff, the owner's conversations for an applicant", async () => {
    const direct = await one<{ n: number }>(`select count(*)::int as n from application_messages m where m.author_side = 'applicant'
      and not exists (select 1 from conversation_reads r where r.application_id = m.application_id and r.reader_id = '${staff.id}' and r.last_read_at >= m.created_at)`);
    const badge = await plans.capture(() => totalUnread({ id: staff.id, side: "staff" }, database.db));
    expect(badge.result).toBe(direct.n);
    expect(badge.result).toBeGreaterThan(10_000);
    await expectBounded(pool(), badge.statements, { rows: 2 });

    const { id: appId, user_id: owner } = await one<{ id: string; user_id: string }>(`select application_id as id, user_id from application_messages where author_side = 'staff' order by application_id limit 1`);
    await markConversationRead(appId, { id: staff.id, side: "staff" }, database.db);
    const applicantMessages = (await one<{ n: number }>(`select count(*)::int as n from application_messages where application_id = '${appId}' and author_side = 'applicant'`)).n;
    expect(await totalUnread({ id: staff.id, side: "staff" }, database.db)).toBe(direct.n - applicantMessages);

    const mine = await plans.capture(() => totalUnread({ id: owner, side: "applicant" }, database.db));
    const ownerDirect = await one<{ n: number }>(`select count(*)::int as n from application_messages m where m.user_id = '${owner}' and m.author_side = 'staff'
      and not exists (select 1 from conversation_reads r where r.application_id = m.application_id and r.reader_id = '${owner}' and r.last_read_at >= m.created_at)`);
    expect(mine.result).toBe(ownerDirect.n);
    await expectBounded(pool(), mine.statements, { rows: 50 });
  });
});
