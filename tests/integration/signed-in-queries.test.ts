import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LoadContext } from "~/load-context";
import { REVIEW_PAGE_SIZE } from "~/domain/validation/review";
import { loader as adminLoader } from "~/routes/admin/applications";
import { loader as dashboardLoader } from "~/routes/dashboard/dashboard";
import { getAuth } from "~/server/accounts/auth.server";
import { confirmEnrolment, startEnrolment } from "~/server/accounts/mfa.server";
import { getOptionalUser } from "~/server/accounts/session.server";
import { currentStep, totpAt } from "~/server/accounts/totp.server";
import { loadConfig, setConfig } from "~/server/platform/config.server";
import { seedScale, type ScaleSeedResult } from "../../bench/seed-scale";
import { openTestDatabase, TEST_DATABASE_URL, type TestDatabase } from "../helpers/test-db";
import { scratchDirs } from "../helpers/scratch-dirs";
import { captureStatements, scans, type Captured, type PlanNode, type StatementCapture } from "../helpers/query-plans";

/**
 * The signed-in pages at scale (issue #8): on a seeded lender's database, every statement the
 * dashboard and the admin list run for one page view (session lookup, role and second-factor checks,
 * the page's own queries, the audit write) is planned with indexes, reads a bounded number of rows,
 * and the loaders hand back bounded lists. The statements are captured from the pool as the real
 * loaders run, then EXPLAIN ANALYZEd with their own parameters, so a query added later is checked too.
 * PostgreSQL only: the planner's choices there are the ones production gets.
 */

const PASSWORD = "Str0ng!Passw0rd";
const context: LoadContext = { cspNonce: "", clientIp: "203.0.113.8", secure: false };

/** Tables that grow with the business: none may be read by a sequential scan. */
const GROWING = ["user", "session", "account", "profiles", "loan_applications", "loan_documents", "bank_accounts", "approved_loans", "audit_log"];

const dataDir = scratchDirs("portal-signed-in-")();

describe.skipIf(!TEST_DATABASE_URL)("signed-in pages on a seeded PostgreSQL database", () => {
  let database: TestDatabase;
  let seeded: ScaleSeedResult;
  let plans: StatementCapture;

  beforeAll(async () => {
    setConfig(loadConfig({ DATA_DIR: dataDir, APP_SECRET: "s".repeat(48), PWNED_PASSWORDS_URL: "off" }));
    database = await openTestDatabase({ target: "postgres", global: true, poolSize: 2 });
    seeded = await seedScale(database, { applicants: 600, applications: 4000, admins: 2, password: PASSWORD });
    // Every statement the loaders send through the pool (the Better Auth adapter shares it).
    plans = captureStatements(database.pool!, { clients: false });
  }, 180_000);
  afterAll(() => database?.cleanup());

  async function signIn(email: string): Promise<string> {
    const { headers } = await getAuth().api.signInEmail({ body: { email, password: PASSWORD }, returnHeaders: true });
    return headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
  }

  /** Runs `view` with capture on; returns what it returned and the statements it sent. */
  const capture = <T>(view: () => Promise<T>) => plans.capture(view);

  async function plan(statement: Captured): Promise<PlanNode> {
    // Writes are planned, not run again (audit_log is append-only and a second row would be a lie).
    const analyze = /^\s*select/i.test(statement.text) ? "analyze, " : "";
    const result = await database.pool!.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(`explain (${analyze}format json) ${statement.text}`, statement.values);
    return result.rows[0]!["QUERY PLAN"][0].Plan;
  }

  /**
   * Fails on a sequential scan of a growing table, or a scan handing up more than `rows` table rows
   * (or `indexEntries` entries for an index-only scan).
   */
  async function expectBounded(statements: Captured[], limits: { rows: number; indexEntries: number }) {
    expect(statements.length).toBeGreaterThan(0);
    for (const statement of statements) {
      for (const node of scans(await plan(statement))) {
        const where = `${node["Node Type"]} on ${node["Relation Name"]} in: ${statement.text}`;
        if (GROWING.includes(node["Relation Name"]!)) expect(node["Node Type"], where).not.toBe("Seq Scan");
        const read = (node["Actual Rows"] ?? 0) * (node["Actual Loops"] ?? 1);
        expect(read, where).toBeLessThanOrEqual(node["Node Type"] === "Index Only Scan" ? limits.indexEntries : limits.rows);
      }
    }
  }

  it("the dashboard: session, role and the applicant's own applications with documents, by index", async () => {
    // The applicant with the most applications: the largest dashboard there is.
    const most = Math.max(...seeded.applicationsPerApplicant);
    const applicant = seeded.applicants[seeded.applicationsPerApplicant.indexOf(most)]!;
    const cookie = await signIn(applicant.email);
    const request = new Request("http://localhost:3000/dashboard", { headers: { cookie } });

    const { result, statements } = await capture(async () => {
      await getOptionalUser(request); // what the root loader adds to every page
      return dashboardLoader({ request, context, params: {} } as never);
    });
    expect(result.applications.length).toBe(Math.min(most, 50));
    expect(result.applications.every((a) => a.userId === applicant.id && a.documents.length >= 7)).toBe(true);
    expect(statements.some((s) => /from "session"/.test(s.text))).toBe(true);
    expect(statements.some((s) => /from "loan_documents"/.test(s.text))).toBe(true);
    // 50 applications with 8 documents at most each.
    await expectBounded(statements, { rows: 400, indexEntries: 400 });
  });

  it("one page view looks the session up once, though each loader gets its own copy of the request; the next view looks again", async () => {
    const applicant = seeded.applicants[3]!;
    const cookie = await signIn(applicant.email);
    // React Router gives the root loader and the page's loader separate Request objects.
    const copy = () => new Request("http://localhost:3000/dashboard", { headers: { cookie } });
    const sessionReads = (statements: Captured[]) => statements.filter((s) => /from "session"/.test(s.text)).length;

    const first = await capture(() => Promise.all([getOptionalUser(copy()), dashboardLoader({ request: copy(), context, params: {} } as never)]));
    expect(first.result[0]?.id).toBe(applicant.id);
    expect(sessionReads(first.statements)).toBe(1);

    // Nothing is kept once answered: a revoked session is seen by the very next page view.
    await getAuth().api.signOut({ headers: new Headers({ cookie }) });
    const second = await capture(() => getOptionalUser(copy()));
    expect(second.result).toBeNull();
    expect(sessionReads(second.statements)).toBe(1);
  });

  it("the admin list: counts, one page of a tab newest first with the applicant's name, the audit row, by index", async () => {
    const admin = seeded.admins[0]!;
    const cookie = await signIn(admin.email);
    const me = await getOptionalUser(new Request("http://localhost:3000/", { headers: { cookie } }));
    const enrolment = await startEnrolment({ id: admin.id, name: admin.name, email: admin.email, sessionId: me!.sessionId });
    const enrolled = await confirmEnrolment(totpAt(enrolment.secret, currentStep()), { actor: { id: admin.id, name: admin.name, email: admin.email, sessionId: me!.sessionId }, request: {} });
    expect(enrolled.ok).toBe(true);

    const lastApproved = Math.ceil(seeded.byStatus.approved / REVIEW_PAGE_SIZE);
    for (const [status, page] of [["pending", 1], ["approved", lastApproved], ["denied", 2]] as const) {
      const request = new Request(`http://localhost:3000/admin?status=${status}&page=${page}`, { headers: { cookie } });
      const { result, statements } = await capture(async () => {
        await getOptionalUser(request);
        return adminLoader({ request, context, params: {} } as never);
      });
      // The loader answers the list itself (a failed load throws to the route's error boundary).
      const list = (result as unknown as { list: { page: number; counts: Record<string, number>; applications: { status: string; submittedAt: string; applicantName: string }[] } }).list;
      expect(list.page).toBe(page);
      expect(list.counts[status]).toBe(seeded.byStatus[status]);
      expect(list.applications).toHaveLength(page === lastApproved ? seeded.byStatus.approved - (page - 1) * REVIEW_PAGE_SIZE : REVIEW_PAGE_SIZE);
      expect(list.applications.every((a) => a.status === status && a.applicantName.length > 0)).toBe(true);
      const dates = list.applications.map((a) => a.submittedAt);
      expect(dates).toEqual([...dates].sort().reverse());
      expect(statements.some((s) => /insert into "audit_log"/.test(s.text))).toBe(true);
      // Rows fetched and joined: one page's worth, however deep the page; the tab counts are four rows
      // kept by triggers (drizzle/0005). Index entries: the page and the one after it (is there a
      // Next?); an old bookmark's page number skips its offset in entries, except the last page, read
      // backwards from the end (decision 0050).
      await expectBounded(statements, { rows: REVIEW_PAGE_SIZE, indexEntries: (page === lastApproved ? 1 : page) * REVIEW_PAGE_SIZE + 1 });
    }
  });
});
