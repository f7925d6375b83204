import { generateDrizzleJson, generateMigration } from "drizzle-kit/api";
import { getTableName, is, sql } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "~/server/platform/db/client.server";
import { dropEverything, findMigrationsFolder, runMigrations } from "~/server/platform/db/migrate.server";
import * as schema from "~/server/platform/db/schema.server";
import { createScratchPostgresDatabase, TEST_DATABASE_URL } from "../helpers/test-db";

const EXPECTED_TABLES = [
  "account",
  "ach_batches",
  "ach_return_imports",
  "ach_trace_sequences",
  "admin_mfa",
  "application_assignments",
  "application_drafts",
  "application_events",
  "application_messages",
  "application_status_counts",
  "approval_proposals",
  "approved_loans",
  "audit_activity_hourly",
  "audit_log",
  "autopay_authorizations",
  "bank_account_restrictions",
  "bank_account_validations",
  "bank_accounts",
  "charge_off_requests",
  "client_counts",
  "collection_contacts",
  "contact_messages",
  "conversation_counts",
  "conversation_notices",
  "conversation_reader_totals",
  "conversation_reads",
  "data_exports",
  "delinquency_rolls",
  "delinquency_snapshots",
  "delinquency_totals",
  "draft_documents",
  "email_outbox",
  "email_verification_codes",
  "esign_consents",
  "hardship_requests",
  "job_runs",
  "loan_applications",
  "loan_documents",
  "loan_fees",
  "loan_flags",
  "loan_fundings",
  "loan_modifications",
  "loan_offers",
  "loan_payment_accounts",
  "loan_payments",
  "loan_protections",
  "notification_preferences",
  "passkeys",
  "payment_promises",
  "privacy_acceptances",
  "profiles",
  "rate_limit",
  "rate_limit_hits",
  "report_rollups",
  "request_items",
  "row_counts",
  "sanctions_entries",
  "sanctions_list_loads",
  "sanctions_matches",
  "sanctions_screenings",
  "servicing_notices",
  "session",
  "session_mfa",
  "signed_agreements",
  "staff_invitations",
  "testimonials",
  "two_factor",
  "user",
  "user_roles",
  "verification",
  "webauthn_challenges",
].sort();

const migrationsFolder = findMigrationsFolder();
const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8")) as {
  entries: { idx: number; tag: string }[];
};

async function rows<T>(database: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await database.db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

async function publicTables(database: Database): Promise<string[]> {
  const list = await rows<{ table_name: string }>(
    database,
    sql`select table_name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  return list.map((r) => r.table_name).sort();
}

async function appliedMigrationCount(database: Database): Promise<number> {
  const [row] = await rows<{ n: number | string }>(database, sql`select count(*) as n from drizzle.__drizzle_migrations`);
  return Number(row?.n ?? 0);
}

async function auditTriggers(database: Database): Promise<string[]> {
  const list = await rows<{ tgname: string }>(
    database,
    sql`select tgname from pg_trigger where tgrelid = 'public.audit_log'::regclass and not tgisinternal order by tgname`,
  );
  return list.map((r) => r.tgname);
}

function roundTrip(open: () => Promise<{ database: Database; cleanup: () => Promise<void> }>) {
  let handle: { database: Database; cleanup: () => Promise<void> } | undefined;
  afterAll(async () => {
    await handle?.cleanup();
  });

  it("migrates an empty database up to every expected table", async () => {
    handle = await open();
    const { database } = handle;
    expect(await publicTables(database)).toEqual([]);
    await runMigrations(database);
    expect(await publicTables(database)).toEqual(EXPECTED_TABLES);
    expect(await appliedMigrationCount(database)).toBe(journal.entries.length);
    expect(await auditTriggers(database)).toEqual(["audit_log_no_truncate", "audit_log_no_update_or_delete", "audit_log_roll_up_insert", "audit_log_seal"]);
  });

  it("running the migrations again is a no-op", async () => {
    const { database } = handle!;
    await runMigrations(database);
    await runMigrations(database);
    expect(await publicTables(database)).toEqual(EXPECTED_TABLES);
    expect(await appliedMigrationCount(database)).toBe(journal.entries.length);
  });

  it("drops everything and migrates again from scratch", async () => {
    const { database } = handle!;
    await database.db.execute(sql`insert into "user" (id, name, email) values ('u1', 'A', 'a@example.com')`);
    await dropEverything(database);
    expect(await publicTables(database)).toEqual([]);
    await runMigrations(database);
    expect(await publicTables(database)).toEqual(EXPECTED_TABLES);
    expect(await appliedMigrationCount(database)).toBe(journal.entries.length);
    const [row] = await rows<{ n: number | string }>(database, sql`select count(*) as n from "user"`);
    expect(Number(row?.n)).toBe(0);
  });
}

describe("the migrations folder", () => {
  it("matches the Drizzle schema (no change left to generate)", async () => {
    const last = journal.entries.at(-1)!;
    const snapshotFile = path.join(migrationsFolder, "meta", `${String(last.idx).padStart(4, "0")}_snapshot.json`);
    const previous = JSON.parse(fs.readFileSync(snapshotFile, "utf8"));
    const current = generateDrizzleJson(schema as Record<string, unknown>, previous.id);
    const pending = await generateMigration(previous, current);
    expect(pending, "schema.server.ts changed without `npx drizzle-kit generate`").toEqual([]);
  });

  it("every table the schema declares is one the round trip expects", () => {
    const declared = Object.values(schema)
      .filter((value) => is(value, PgTable))
      .map((table) => getTableName(table as PgTable))
      .sort();
    expect(declared).toEqual(EXPECTED_TABLES);
  });

  it("is a chain of numbered files, each listed in the journal", () => {
    const files = fs.readdirSync(migrationsFolder).filter((f) => f.endsWith(".sql")).sort();
    expect(files).toEqual(journal.entries.map((e) => `${e.tag}.sql`));
  });
});

describe("migration round trip on PGlite (in memory)", () => {
  roundTrip(async () => {
    const database = await openDatabase({ memory: true });
    return { database, cleanup: () => database.close() };
  });
});

describe.runIf(TEST_DATABASE_URL)("migration round trip on PostgreSQL", () => {
  roundTrip(async () => {
    const scratch = await createScratchPostgresDatabase();
    const database = await openDatabase({ databaseUrl: scratch.url, poolSize: 3 });
    return {
      database,
      cleanup: async () => {
        await database.close();
        await scratch.drop();
      },
    };
  });

  it("two instances migrating at once both succeed (advisory lock)", async () => {
    const scratch = await createScratchPostgresDatabase();
    const a = await openDatabase({ databaseUrl: scratch.url, poolSize: 3 });
    const b = await openDatabase({ databaseUrl: scratch.url, poolSize: 3 });
    try {
      const results = await Promise.allSettled([runMigrations(a), runMigrations(b), runMigrations(a)]);
      expect(results.map((r) => (r.status === "rejected" ? String(r.reason) : "ok"))).toEqual(["ok", "ok", "ok"]);
      expect(await publicTables(a)).toEqual(EXPECTED_TABLES);
      expect(await appliedMigrationCount(b)).toBe(journal.entries.length);
    } finally {
      await a.close();
      await b.close();
      await scratch.drop();
    }
  });
});
