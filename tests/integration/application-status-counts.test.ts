import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { countApplicationsByStatus } from "~/server/applications/staff-applications.server";
import type { Database } from "~/server/platform/db/client.server";
import { runMigrations } from "~/server/platform/db/migrate.server";
import { openTestDatabase, testTargets, TEST_DATABASE_URL, type TestDatabase, rowsOf } from "../helpers/test-db";
import { databasesBeforeMigration } from "../helpers/migrations-up-to";

/**
 * The admin list's tab counts come from application_status_counts, kept by statement triggers on
 * loan_applications (drizzle/0005). Whatever writes the table — one row, a bulk insert, a decision
 * for several rows, a delete across statuses, TRUNCATE, rows that predate the migration — the counts
 * must equal a real count.
 */

/** `count` applications for `userId`; the n-th gets statuses[n % statuses.length]. */
/** `before`: rows written before migration 0023, in its dollar columns. */
function insertApplications(database: Database, userId: string, count: number, statuses: string[], before = false) {
  const list = sql.raw(`array[${statuses.map((s) => `'${s}'`).join(",")}]`);
  return database.db.execute(sql`
    insert into loan_applications (user_id, loan_type, ${sql.raw(before ? "requested_amount, desired_interest_rate" : "requested_amount_cents, desired_rate_milli")}, loan_duration, purpose,
      first_name, last_name, date_of_birth, email, phone, address_line1, city, state, zip_code, employment_status,
      employer_name, ${sql.raw(before ? "monthly_income" : "monthly_income_cents")}, status, reviewed_at)
    select ${userId}, 'personal', (10000 + g) * ${before ? 1 : 100}, ${before ? 9.5 : 9500}, 36, 'Counted application',
      'Count', 'Ed', '1980-01-01', 'count@example.com', '3025550100', '1 Main St', 'Dover', 'DE', '19901', 'full-time',
      'Acme', ${before ? 5000 : 500000}, (${list})[1 + g % ${statuses.length}],
      case when (${list})[1 + g % ${statuses.length}] in ('approved', 'denied') then now() end
    from generate_series(0, ${count - 1}) as g`);
}

/** The stored counts and a real count, for all four statuses. */
async function storedAndReal(database: Database) {
  const stored = await rowsOf<{ status: string; applications: number }>(database, sql`select status, applications from application_status_counts order by status`);
  const real = await rowsOf<{ status: string; n: number | string }>(database, sql`select status, count(*) as n from loan_applications group by status`);
  const realBy = Object.fromEntries(real.map((r) => [r.status, Number(r.n)]));
  return {
    stored: Object.fromEntries(stored.map((r) => [r.status, Number(r.applications)])),
    real: Object.fromEntries(["approved", "denied", "pending", "under_review"].map((s) => [s, realBy[s] ?? 0])),
  };
}

async function expectExact(database: Database) {
  const { stored, real } = await storedAndReal(database);
  expect(stored).toEqual(real);
  const tabs = await countApplicationsByStatus(database.db);
  expect(tabs).toEqual({ pending: real.pending, under_review: real.under_review, approved: real.approved, denied: real.denied });
}

describe.each(testTargets)("application status counts on %s", (target) => {
  const openBefore = databasesBeforeMigration(target);
  let database: TestDatabase;

  it("counts the applications that were there before the migration", async () => {
    database = await openBefore(4);
    await database.db.execute(sql`insert into "user" (id, name, email) values ('counted', 'Counted', 'counted@example.com')`);
    await insertApplications(database, "counted", 7, ["pending", "approved", "denied", "under_review", "pending"], true);
    await runMigrations(database);
    const { stored } = await storedAndReal(database);
    expect(stored).toEqual({ approved: 2, denied: 1, pending: 3, under_review: 1 });
    await expectExact(database);
  });

  it("follows single and bulk inserts, decisions, note edits and deletes across statuses", async () => {
    await insertApplications(database, "counted", 1, ["pending"]);
    await expectExact(database);
    await insertApplications(database, "counted", 40, ["pending", "approved", "denied"]);
    await expectExact(database);

    // A decision for several rows in one statement, and one for a single row.
    await database.db.execute(sql`
      update loan_applications set status = 'approved', reviewed_at = now()
      where id in (select id from loan_applications where status = 'pending' order by id limit 5)`);
    await expectExact(database);
    await database.db.execute(sql`
      update loan_applications set status = 'denied', reviewed_at = now()
      where id = (select id from loan_applications where status = 'pending' order by id limit 1)`);
    await expectExact(database);

    // An update that changes no status changes no count.
    const before = (await storedAndReal(database)).stored;
    await database.db.execute(sql`update loan_applications set notes = 'checked'`);
    expect((await storedAndReal(database)).stored).toEqual(before);

    // One delete across every status (as retention deletes).
    await database.db.execute(sql`delete from loan_applications where requested_amount_cents % 400 = 0`);
    await expectExact(database);
  });

  it("reads zero for every tab after TRUNCATE, and counts again from there", async () => {
    await database.db.execute(sql`truncate loan_applications cascade`);
    const { stored } = await storedAndReal(database);
    expect(stored).toEqual({ approved: 0, denied: 0, pending: 0, under_review: 0 });
    await insertApplications(database, "counted", 3, ["denied"]);
    await expectExact(database);
  });
});

describe.runIf(TEST_DATABASE_URL)("application status counts under concurrent writers (PostgreSQL)", () => {
  it("decisions in parallel transactions and a delete across statuses neither deadlock nor miscount", async () => {
    const database = await openTestDatabase({ target: "postgres" });
    try {
      await database.db.execute(sql`insert into "user" (id, name, email) values ('counted', 'Counted', 'counted@example.com')`);
      await insertApplications(database, "counted", 60, ["pending", "pending", "approved", "denied"]);
      const pending = await rowsOf<{ id: string }>(database, sql`select id from loan_applications where status = 'pending' order by id`);
      const pool = database.pool!;
      const decide = async (id: string, status: "approved" | "denied") => {
        const client = await pool.connect();
        try {
          await client.query("begin");
          await client.query("update loan_applications set status = $2, reviewed_at = now() where id = $1", [id, status]);
          await new Promise((r) => setTimeout(r, 5));
          await client.query("commit");
        } finally {
          client.release();
        }
      };
      await Promise.all([
        ...pending.slice(0, 20).map((row, i) => decide(row.id, i % 2 ? "approved" : "denied")),
        database.db.execute(sql`delete from loan_applications where status in ('approved', 'denied') and requested_amount_cents % 500 = 0`),
      ]);
      await expectExact(database);
    } finally {
      await database.cleanup();
    }
  });
});
