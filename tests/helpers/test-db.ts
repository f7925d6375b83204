/**
 * Fresh, migrated databases for integration tests.
 *
 * - Default: in-memory PGlite (nothing to set up).
 * - With TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test): the default becomes a
 *   throwaway database `t_<random>` created on that server and dropped at cleanup, so test files
 *   running in parallel never share tables.
 *
 * Typical use:
 *   const getDb = useTestDatabase();            // beforeAll opens + migrates, afterAll drops
 *   it("...", async () => { await getDb().db.insert(...) });
 * or, to run a suite on every available target:
 *   describe.each(testTargets)("on %s", (target) => { const t = useTestDatabase({ target }); ... });
 */
import type { SQL } from "drizzle-orm";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { openDatabase, setDatabase, type Database } from "~/server/platform/db/client.server";
import { runMigrations } from "~/server/platform/db/migrate.server";
import { pgliteTemplateBlob, postgresTemplateName } from "./database-templates";

export type TestTarget = "pglite" | "postgres";

/** The PostgreSQL server tests may use, or undefined (then only PGlite runs). */
export const TEST_DATABASE_URL: string | undefined = process.env.TEST_DATABASE_URL?.trim() || undefined;

/** Every target available in this run: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const testTargets: TestTarget[] = TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];

/** The target used when a test does not choose one. */
export const defaultTestTarget: TestTarget = TEST_DATABASE_URL ? "postgres" : "pglite";

export type TestDatabase = Database & {
  target: TestTarget;
  /** The throwaway database's URL (PostgreSQL only). */
  url?: string;
  /** Closes the connection and, on PostgreSQL, drops the throwaway database. Safe to call twice. */
  cleanup: () => Promise<void>;
};

export type OpenTestDatabaseOptions = {
  target?: TestTarget;
  /** Apply the migrations (default true). */
  migrate?: boolean;
  /** Also install it as the process-wide database (getDb()); cleanup uninstalls it. Default false. */
  global?: boolean;
  /** Pool size on PostgreSQL (default 5). */
  poolSize?: number;
};

function requireServerUrl(): string {
  if (!TEST_DATABASE_URL) throw new Error("TEST_DATABASE_URL is not set: no PostgreSQL server to create a test database on");
  return TEST_DATABASE_URL;
}

async function withAdminClient<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: requireServerUrl(), connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Creates an empty database `t_<random>` on the TEST_DATABASE_URL server. Returns its URL and a
 * function that drops it (forcibly closing leftover connections).
 */
export async function createScratchPostgresDatabase(template: string | null = null): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `t_${Date.now().toString(36)}_${randomBytes(6).toString("hex")}`;
  // CREATE DATABASE copies template1 (or the migrated template); two at the same instant can collide on its lock, so retry briefly.
  for (let attempt = 1; ; attempt++) {
    try {
      await withAdminClient((c) => c.query(`create database "${name}"${template ? ` template "${template}"` : ""}`));
      break;
    } catch (error) {
      const message = (error as Error).message;
      if (attempt >= 5 || !/being accessed by other users/.test(message)) throw error;
      await new Promise((r) => setTimeout(r, 100 * attempt));
    }
  }
  const url = new URL(requireServerUrl());
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      if (dropped) return;
      dropped = true;
      // WITH (FORCE) is PostgreSQL 13+.
      await withAdminClient((c) => c.query(`drop database if exists "${name}" with (force)`));
    },
  };
}

/** Opens a fresh database (migrated unless told otherwise). Call cleanup() when done. */
export async function openTestDatabase(options: OpenTestDatabaseOptions = {}): Promise<TestDatabase> {
  const target = options.target ?? defaultTestTarget;
  let database: Database;
  let url: string | undefined;
  let drop: (() => Promise<void>) | undefined;
  // A migrated template when the global setup made one (tests/setup/database-templates.ts); runMigrations then applies nothing.
  const fromTemplate = options.migrate !== false;
  if (target === "postgres") {
    const scratch = await createScratchPostgresDatabase(fromTemplate ? postgresTemplateName() : null);
    url = scratch.url;
    drop = scratch.drop;
    try {
      database = await openDatabase({ databaseUrl: scratch.url, poolSize: options.poolSize ?? 5 });
    } catch (error) {
      await scratch.drop();
      throw error;
    }
  } else {
    const from = fromTemplate ? pgliteTemplateBlob() : null;
    database = await openDatabase(from ? { memory: true, from } : { memory: true });
  }

  let cleaned = false;
  const cleanup = async () => {
    if (cleaned) return;
    cleaned = true;
    if (options.global) setDatabase(undefined);
    try {
      await database.close();
    } finally {
      await drop?.();
    }
  };

  try {
    if (options.migrate !== false) await runMigrations(database);
  } catch (error) {
    await cleanup();
    throw error;
  }
  if (options.global) setDatabase(database);
  return Object.assign(database, { target, url, cleanup });
}

/**
 * Registers beforeAll/afterAll hooks that open a fresh migrated database for the current file or
 * describe block; returns a getter (the database exists only once beforeAll ran).
 */
export function useTestDatabase(options: OpenTestDatabaseOptions = {}): () => TestDatabase {
  let current: TestDatabase | undefined;
  beforeAll(async () => {
    current = await openTestDatabase(options);
  });
  afterAll(async () => {
    await current?.cleanup();
    current = undefined;
  });
  return () => {
    if (!current) throw new Error("useTestDatabase(): the database is opened in beforeAll; use it inside a test or hook");
    return current;
  };
}

/** The driver error behind a failed query (Drizzle wraps it), with its SQLSTATE and constraint. */
export function databaseErrorOf(error: unknown): { code?: string; constraint?: string; message: string } {
  let e: unknown = error;
  for (let depth = 0; depth < 5 && e && typeof e === "object"; depth++) {
    const candidate = e as { code?: unknown; constraint?: unknown; message?: unknown; cause?: unknown };
    if (typeof candidate.code === "string" && /^[0-9A-Z]{5}$/.test(candidate.code)) {
      return {
        code: candidate.code,
        constraint: typeof candidate.constraint === "string" ? candidate.constraint : undefined,
        message: String(candidate.message ?? ""),
      };
    }
    e = candidate.cause;
  }
  return { message: error instanceof Error ? error.message : String(error) };
}

/** The rows a raw SQL statement returns (both drivers answer `{ rows }` to `db.execute`). */
export async function rowsOf<T>(database: Pick<Database, "db">, query: SQL): Promise<T[]> {
  return ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;
}
