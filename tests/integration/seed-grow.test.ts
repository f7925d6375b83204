import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyAuditChain } from "~/server/platform/audit/audit-chain.server";
import { writeAudit } from "~/server/platform/audit/audit.server";
import { loadConfig, setConfig } from "~/server/platform/config.server";
import { growScale } from "../../bench/seed-grow";
import { pipelineReport } from "~/server/staff/pipeline-report.server";
import { completeSinceRule } from "~/server/applications/reg-b-clock.server";
import { runServicingJobs } from "~/server/loans/servicing-jobs.server";
import { seedScale, type ScaleSeedResult } from "../../bench/seed-scale";
import { referencePipelineReport } from "../helpers/pipeline-reference";
import { openTestDatabase, TEST_DATABASE_URL, type TestDatabase } from "../helpers/test-db";

/**
 * The scale bench's fast seeding (decision 0045): a database grown in SQL from seedScale's template is
 * one the application accepts — the audit chain verifies (and keeps verifying after the app writes),
 * the admin list's tab counts match the rows, every copy has its owner's name and its own storage keys,
 * and the applicants, loans and queues are there. PostgreSQL only (the fast path is PostgreSQL's).
 */

const PASSWORD = "Str0ng!Passw0rd";
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-seed-grow-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

type Row = Record<string, unknown>;

describe.skipIf(!TEST_DATABASE_URL)("growing a seeded database in SQL", () => {
  let database: TestDatabase;
  let seeded: ScaleSeedResult;
  const rows = async (query: ReturnType<typeof sql>) => ((await database.db.execute(query)) as unknown as { rows: Row[] }).rows;
  const count = async (query: ReturnType<typeof sql>) => Number((await rows(query))[0]!.n);

  beforeAll(async () => {
    setConfig(loadConfig({ DATA_DIR: dataDir, APP_SECRET: "s".repeat(48), PWNED_PASSWORDS_URL: "off" }));
    database = await openTestDatabase({ target: "postgres", poolSize: 2 });
    seeded = await seedScale(database, { applicants: 40, applications: 200, admins: 3, password: PASSWORD });
  }, 120_000);
  afterAll(() => database?.cleanup());

  it("adds what happens after submission to the template, then multiplies it", async () => {
    const first = await growScale(database, seeded, { applications: 200 });
    expect(first.applications).toBe(200);
    expect(first.rows.audit_log).toBe(2000);
    expect(first.rows.loan_payments).toBeGreaterThan(0);
    expect(first.rows.application_messages).toBeGreaterThan(0);

    const grown = await growScale(database, seeded, { applications: 1500 });
    expect(grown.applications).toBe(1500);
    expect(grown.applicants).toBe(300);
    expect(await count(sql`select count(*) as n from loan_applications`)).toBe(1500);
    expect(await count(sql`select count(*) as n from "user" u where not exists (select 1 from user_roles r where r.user_id = u.id)`)).toBe(300);
    expect(await count(sql`select count(*) as n from audit_log`)).toBe(15_000);
    // Every new applicant has an application, a credential and a profile under their own address.
    expect(await count(sql`select count(*) as n from "user" u join profiles p on p.id = u.id and p.email = u.email join account a on a.user_id = u.id
      where u.email like 'applicant%' and exists (select 1 from loan_applications l where l.user_id = u.id)`)).toBe(300);
  }, 120_000);

  it("keeps the admin list's counts, the owners' names and the storage keys right", async () => {
    const counts = await rows(sql`select c.status, c.applications, (select count(*) from loan_applications a where a.status = c.status)::int as actual from application_status_counts c`);
    for (const row of counts) expect(row.applications).toBe(row.actual);
    expect(await count(sql`select count(*) as n from loan_applications a join "user" u on u.id = a.user_id where a.email <> u.email or u.name <> a.first_name || ' ' || a.last_name`)).toBe(0);
    expect(await count(sql`select count(*) as n from loan_documents d where d.file_path <> d.user_id || '/' || d.application_id || '/' || split_part(d.file_path, '/', 3)`)).toBe(0);
    expect(await count(sql`select count(*) as n from bank_accounts b join loan_applications a on a.id = b.application_id where b.user_id <> a.user_id`)).toBe(0);
    expect(await count(sql`select count(*) as n from loan_applications where assigned_to is not null and status in ('pending', 'under_review')`)).toBeGreaterThan(0);
    expect(await count(sql`select count(*) as n from loan_applications where submitted_at > now() or submitted_at < now() - interval '732 days'`)).toBe(0);
  });

  it("rebuilds every count the disabled triggers keep (portal_rebuild_counts): the pages read what a live database would hold", async () => {
    const kept = (key: string) => count(sql`select coalesce((select rows from row_counts where key = ${key}), 0) as n`);
    expect(await kept("loan_documents")).toBe(await count(sql`select count(*) as n from loan_documents`));
    expect(await kept("application_messages:applicant")).toBe(await count(sql`select count(*) as n from application_messages where author_side = 'applicant'`));
    expect(await count(sql`select coalesce(sum(rows), 0) as n from row_counts where key like 'assigned:%'`)).toBe(await count(sql`select count(*) as n from loan_applications where assigned_to is not null`));
    expect(await count(sql`select coalesce(sum(rows), 0) as n from row_counts where key like 'approved_loans:%'`)).toBe(await count(sql`select count(*) as n from approved_loans`));
    expect(await count(sql`select coalesce(sum(actions), 0) as n from audit_activity_hourly`)).toBe(await count(sql`select count(*) as n from audit_log`));
    expect(await count(sql`select coalesce(sum(applicant_messages + staff_messages), 0) as n from conversation_counts`)).toBe(await count(sql`select count(*) as n from application_messages`));
    expect(await count(sql`select clients as n from client_counts where name = 'applicants'`)).toBe(
      await count(sql`select count(*) as n from profiles p where not exists (select 1 from user_roles r where r.user_id = p.id)`),
    );
  });

  it("rebuilds the reports page's kept figures (decisions 0049, 0055): every figure as direct aggregates give it", async () => {
    const now = new Date();
    const today = now.toISOString().slice(0, 10);
    for (const from of [new Date(now.getTime() - 89 * 86_400_000), new Date(now.getTime() - 730 * 86_400_000)]) {
      const range = { from: from.toISOString().slice(0, 10), to: today };
      const report = await pipelineReport(range, database.db, now);
      expect(report).toEqual(await referencePipelineReport(range, database.db, now));
      // The median from the rebuilt bucket counts, not an empty range's null.
      expect(report.medianDecision.decisions).toBeGreaterThan(0);
    }
    expect(await count(sql`select count(*) as n from loan_applications where complete_since is distinct from ${completeSinceRule()}`)).toBe(0);
  });

  it("leaves the servicing job nothing to do today: the bench measures pages after the day's run", async () => {
    const loans = await count(sql`select count(*) as n from approved_loans where status in ('active', 'approved')`);
    expect(loans).toBeGreaterThan(0);
    const run = await runServicingJobs(database.db);
    expect(run).toMatchObject({ ran: true, loans: 0, feesAssessed: 0, lateNotices: 0, reminders: 0 });
  });

  it("leaves an audit chain the verifier accepts, and the app's next rows seal onto it", async () => {
    const before = await verifyAuditChain(database.db);
    expect(before).toEqual({ ok: true, rows: 15_000 });
    await writeAudit(database.db, { actor: null, action: "records.dispose", details: { after: "seeding" } });
    expect(await verifyAuditChain(database.db)).toEqual({ ok: true, rows: 15_001 });
  });
});
