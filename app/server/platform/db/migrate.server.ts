import { sql } from "drizzle-orm";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Database } from "./client.server";

// Arbitrary but fixed: every instance of this product takes the same advisory lock to migrate.
const MIGRATION_LOCK_KEY = 724_199_301;

/**
 * The migrations folder is found by walking up from this module, because this file runs from
 * app/server/platform/db in tests and from build/server after bundling.
 */
export function findMigrationsFolder(start = path.dirname(fileURLToPath(import.meta.url))): string {
  let dir = start;
  for (;;) {
    const candidate = path.join(dir, "drizzle");
    if (fs.existsSync(path.join(candidate, "meta", "_journal.json"))) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`No drizzle/meta/_journal.json found above ${start}`);
    dir = parent;
  }
}

export type MigrationResult = { applied: number; total: number };

/** Rows in Drizzle's journal table (0 before the first migration created it). */
async function journalRows(database: Database): Promise<number> {
  const rows = async (query: ReturnType<typeof sql>) =>
    ((await database.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;
  const [table] = await rows(sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`);
  if (!table?.present) return 0;
  const [count] = await rows(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
  return Number(count?.n ?? 0);
}

/**
 * Applies pending migrations and says how many this call applied. On PostgreSQL several instances
 * may start at once: an advisory lock serialises them, and the count is taken inside the lock so
 * only the instance that did the work reports it.
 */
export async function runMigrations(database: Database, migrationsFolder = findMigrationsFolder()): Promise<MigrationResult> {
  if (database.kind === "pglite") {
    const before = await journalRows(database);
    await migratePglite(database.db as never, { migrationsFolder });
    const total = await journalRows(database);
    return { applied: total - before, total };
  }
  const pool = database.pool!;
  const client = await pool.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    try {
      const before = await journalRows(database);
      await migratePg(database.db as never, { migrationsFolder });
      const total = await journalRows(database);
      return { applied: total - before, total };
    } finally {
      await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}

/** Drops everything this product created (tests only: a migration round trip). */
export async function dropEverything(database: Database): Promise<void> {
  await database.db.execute(sql`drop schema if exists public cascade`);
  await database.db.execute(sql`drop schema if exists drizzle cascade`);
  await database.db.execute(sql`create schema public`);
}
