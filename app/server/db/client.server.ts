import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import path from "node:path";
import pg from "pg";
import { acquireDataDirLock, type DataDirLock } from "./data-dir-lock.server";
import * as schema from "./schema.server";

/** Both drivers give the same query builder; code above this module never knows which one runs. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export type Database = {
  db: Db;
  kind: "pglite" | "postgres";
  /** Where the data lives, for log lines (never includes a password). */
  describe: string;
  /** Resolves when the database answers a trivial query within timeoutMs. */
  ping: (timeoutMs?: number) => Promise<void>;
  close: () => Promise<void>;
  /** The underlying driver, for LISTEN/NOTIFY and raw access in tests. */
  pglite?: PGlite;
  pool?: pg.Pool;
};

export type OpenOptions =
  | { databaseUrl: string; poolSize?: number }
  | { dataDir: string }
  | { memory: true };

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
    }),
  ]);
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "postgres://(unparsable url)";
  }
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if ("databaseUrl" in options) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: 5000,
      idleTimeoutMillis: 30_000,
    });
    // An idle client losing its connection (server restart) must not crash the process.
    pool.on("error", (error) => console.error(`[db] idle PostgreSQL client error: ${error.message}`));
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      db,
      kind: "postgres",
      describe: redact(options.databaseUrl),
      pool,
      ping: (timeoutMs = 2000) => withTimeout(pool.query("select 1").then(() => undefined), timeoutMs, "PostgreSQL"),
      close: () => pool.end(),
    };
  }

  let lock: DataDirLock | undefined;
  let dataDir: string | undefined;
  if ("dataDir" in options) {
    dataDir = path.resolve(options.dataDir, "pgdata");
    lock = acquireDataDirLock(options.dataDir);
  }
  try {
    const client = dataDir ? await PGlite.create({ dataDir }) : await PGlite.create();
    const db = drizzlePglite(client, { schema }) as unknown as Db;
    let closed = false;
    return {
      db,
      kind: "pglite",
      describe: dataDir ? `embedded PGlite in ${dataDir}` : "embedded PGlite in memory",
      pglite: client,
      ping: (timeoutMs = 2000) =>
        withTimeout(
          db.execute(sql`select 1`).then(() => undefined),
          timeoutMs,
          "PGlite",
        ),
      close: async () => {
        if (closed) return;
        closed = true;
        try {
          await client.close();
        } finally {
          lock?.release();
        }
      },
    };
  } catch (error) {
    lock?.release();
    throw error;
  }
}

let current: Database | undefined;

/** The process-wide database, opened by the server entry (or a test) through setDatabase. */
export function getDatabase(): Database {
  if (!current) throw new Error("Database not opened: the server entry must call setDatabase(await openDatabase(...))");
  return current;
}

export function getDb(): Db {
  return getDatabase().db;
}

export function setDatabase(database: Database | undefined): void {
  current = database;
}
