import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENTS_PAGE_SIZE, listClients } from "~/server/staff/clients.server";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import { loadConfig, setConfig } from "~/server/platform/config.server";
import { seedScale } from "../../bench/seed-scale";
import { openTestDatabase, TEST_DATABASE_URL, type TestDatabase } from "../helpers/test-db";
import { scratchDirs } from "../helpers/scratch-dirs";
import { captureStatements, scans, type Captured, type PlanNode, type StatementCapture } from "../helpers/query-plans";

/**
 * Staff search at scale (issue 24): on ~30,000 profiles, applications and bank accounts, every
 * statement the client list sends — unfiltered (first and a deep page) and each search kind — is
 * planned with indexes (no sequential scan of profiles, loan_applications or bank_accounts) and reads
 * a bounded number of rows. Statements are captured from the pool as listClients runs, then EXPLAIN
 * ANALYZEd with their own parameters. PostgreSQL only: its planner is the one production gets.
 */

const GROWING = ["profiles", "loan_applications", "bank_accounts"];
const BULK = 30_000;
const admin: AuditActor = { id: "plan-admin", name: "Plan Admin", email: "plan@example.com" };

const dataDir = scratchDirs("portal-search-plans-")();

describe.skipIf(!TEST_DATABASE_URL)("staff search query plans on a seeded PostgreSQL database", () => {
  let database: TestDatabase;
  let plans: StatementCapture;
  let someApplicationId = "";

  beforeAll(async () => {
    setConfig(loadConfig({ DATA_DIR: dataDir, APP_SECRET: "p".repeat(48), PWNED_PASSWORDS_URL: "off" }));
    database = await openTestDatabase({ target: "postgres", global: true, poolSize: 2 });
    // Real rows (through the submission's row builders, so with blind indexes) and two staff members…
    await seedScale(database, { applicants: 200, applications: 400, admins: 2, password: "Str0ng!Passw0rd" });
    // …then many more by SQL: each bulk applicant has one application (a copy of a seeded one) and one account.
    const pool = database.pool!;
    await pool.query(`insert into "user" (id, name, email, email_verified)
      select 'bulk-' || g, 'Bulk ' || g, 'bulk' || g || '@bulk.test', true from generate_series(1, ${BULK}) g`);
    await pool.query(`insert into profiles (id, full_name, email, phone)
      select 'bulk-' || g, initcap(substr(md5(g::text), 1, 7)) || ' ' || initcap(substr(md5((g * 7)::text), 1, 9)),
        substr(md5((g * 3)::text), 1, 8) || g || '@bulk.test', (2000000000 + g)::text
      from generate_series(1, ${BULK}) g`);
    const columns = async (table: string) =>
      (await pool.query<{ c: string }>(`select column_name as c from information_schema.columns where table_name = $1 order by ordinal_position`, [table])).rows.map((r) => r.c);
    const copy = async (table: string, overrides: Record<string, string>) => {
      const cols = await columns(table);
      const exprs = cols.map((c) => overrides[c] ?? `t."${c}"`);
      await pool.query(`insert into "${table}" (${cols.map((c) => `"${c}"`).join(", ")})
        select ${exprs.join(", ")} from (select * from "${table}" limit 1) t cross join generate_series(1, ${BULK}) g`);
    };
    await copy("loan_applications", {
      id: `md5('app' || g)::uuid`,
      user_id: `'bulk-' || g`,
      idempotency_key: "null",
      phone: `(3000000000 + g)::text`,
      ssn_last4_index: `'v1:' || substr(md5('ssn' || (g % 10000)), 1, 22)`,
      assigned_to: "null",
      reviewed_by: "null",
    });
    await copy("bank_accounts", {
      id: "gen_random_uuid()",
      user_id: `'bulk-' || g`,
      application_id: `md5('app' || g)::uuid`,
      is_primary: "false",
      account_last4_index: `'v1:' || substr(md5('acct' || (g % 10000)), 1, 22)`,
    });
    someApplicationId = (await pool.query<{ id: string }>(`select id from loan_applications where user_id = 'bulk-777'`)).rows[0]!.id;
    await pool.query("analyze");

    plans = captureStatements(pool, { clients: false });
  }, 300_000);
  afterAll(() => database?.cleanup());

  async function statementsOf(q: string, page = 1) {
    const { result: list, statements } = await plans.capture(() => listClients({ q, page }, { actor: admin, request: {} }));
    return { list, statements: statements.filter((s) => !/^\s*insert into "audit_log"/i.test(s.text)) };
  }

  async function expectIndexed(statements: Captured[], maxRows: number) {
    expect(statements.length).toBeGreaterThan(0);
    for (const statement of statements) {
      const result = await database.pool!.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(`explain (analyze, format json) ${statement.text}`, statement.values);
      for (const node of scans(result.rows[0]!["QUERY PLAN"][0].Plan)) {
        const where = `${node["Node Type"]} on ${node["Relation Name"]} in: ${statement.text}`;
        if (GROWING.includes(node["Relation Name"]!)) expect(node["Node Type"], where).not.toBe("Seq Scan");
        expect((node["Actual Rows"] ?? 0) * (node["Actual Loops"] ?? 1), where).toBeLessThanOrEqual(maxRows);
      }
    }
  }

  it("the unfiltered list: total from the kept count, one page read off the index (first and a deep page)", async () => {
    const first = await statementsOf("");
    expect(first.list.total).toBe(BULK + 200);
    expect(first.list.clients).toHaveLength(CLIENTS_PAGE_SIZE);
    await expectIndexed(first.statements, CLIENTS_PAGE_SIZE + 1);
    const deep = await statementsOf("", 40);
    expect(deep.list.page).toBe(40);
    await expectIndexed(deep.statements, 40 * CLIENTS_PAGE_SIZE + 1);
  });

  it.each([
    ["a name (one letter: many matches)", "a"],
    ["a full name", "bulk person"],
    ["an e-mail address", "bulk12@"],
    ["an e-mail domain", "@bulk.test"],
    ["a phone number (profile and application)", "(200) 000-0777"],
    ["a phone prefix", "3000000"],
    ["last 4 (and a hex id prefix)", "1120"],
    ["an application id prefix", "3f2a-9c"],
  ])("a search by %s uses indexes and reads a bounded number of rows", async (_label, q) => {
    const { list, statements } = await statementsOf(q);
    expect(list.clients.length).toBeLessThanOrEqual(CLIENTS_PAGE_SIZE);
    await expectIndexed(statements, 400);
  });

  it("a whole application id finds its owner", async () => {
    const { list, statements } = await statementsOf(someApplicationId);
    expect(list.clients.map((c) => c.id)).toEqual(["bulk-777"]);
    await expectIndexed(statements, 400);
  });
});
