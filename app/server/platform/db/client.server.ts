import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import v8 from "node:v8";
import pg from "pg";
import { acquireDataDirLock, type DataDirLock } from "./data-dir-lock.server";
import * as schema from "./schema.server";

/** Both drivers give the same query builder; code above this module never knows which one runs. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A Drizzle transaction on our schema (what db.transaction hands its callback). */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** Either the database handle or a transaction, for writes that join the caller's transaction if any. */
export type DbOrTx = Db | Tx;

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
  /** In memory; `from`: a dumped data folder to start from (the test suites' migrated template). */
  | { memory: true; from?: Blob };

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
      options: CONNECTION_OPTIONS,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: 5000,
      idleTimeoutMillis: 30_000,
    });
    // An idle client losing its connection (server restart) must not crash the process.
    pool.on("error", (error) => console.error(`[db] idle PostgreSQL client error: ${error.message}`));
    // The pool listens for errors only on idle clients. A connection that dies while its client is
    // checked out (a query just failed with 57P01 and the client is not yet released) emits 'error'
    // on the client, and an 'error' with no listener ends the process (seen in CI when PostgreSQL
    // restarted under load). The failed query already reports the outage; the pool drops the client
    // on release because it is no longer queryable.
    pool.on("connect", (client) => client.on("error", () => undefined));
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
    compileWasmWithBaselineTierOnly();
    if (dataDir) await initializeInChildProcess(dataDir);
    const from = "memory" in options ? options.from : undefined;
    const client = dataDir
      ? await PGlite.create({ dataDir, postgresqlconf: PGLITE_SETTINGS })
      : await PGlite.create({ postgresqlconf: PGLITE_SETTINGS, ...(from ? { loadDataDir: from } : {}) });
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

/**
 * PGlite runs PostgreSQL inside this process's memory. Its default 128 MB of shared buffers is sized
 * for a server; an embedded portal database is far smaller, and a third of the process's memory is
 * better left to Node (measured: about 330 → 190 MB resident after opening).
 */
const PGLITE_SETTINGS = ["shared_buffers=16MB"];

/**
 * V8 compiles PGlite's WebAssembly twice: a quick baseline (Liftoff) and, for functions it finds hot,
 * an optimized (TurboFan) version. For an embedded PostgreSQL the optimizing tier costs about 50 MB of
 * code and buys nothing measurable (queries are dominated by tier-up compilation and I/O: the same
 * insert/select loop ran as fast or faster with the baseline only). The flag only affects WebAssembly
 * compiled after it is set, so it is set before PGlite's module is first compiled.
 */
function compileWasmWithBaselineTierOnly(): void {
  v8.setFlagsFromString("--liftoff-only");
}

/**
 * Creating a new cluster (initdb) grows PGlite's WebAssembly memory to about 700 MB, and WebAssembly
 * memory never shrinks: done in this process, the server would carry it for its whole life. A new
 * data folder is therefore initialized by a short-lived child process first.
 */
async function initializeInChildProcess(dataDir: string): Promise<void> {
  if (fs.existsSync(path.join(dataDir, "PG_VERSION"))) return;
  let moduleUrl: string;
  try {
    moduleUrl = import.meta.resolve("@electric-sql/pglite");
  } catch {
    return; // a bundler without import.meta.resolve (tests): PGlite.create initializes in-process
  }
  const script = `const { PGlite } = await import(${JSON.stringify(moduleUrl)});
const db = await PGlite.create({ dataDir: ${JSON.stringify(dataDir)} });
await db.close();`;
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`Initializing the embedded database in ${dataDir} failed (exit ${code}): ${stderr.trim()}`)),
    );
  });
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

/**
 * Just-in-time compilation off for every connection (decision 0054). Every statement the portal runs is
 * bounded by an index and a page; when the planner overestimates one (a range bound it cannot see), its
 * cost passes jit_above_cost and each execution spends 60–85 ms compiling code for a query that runs
 * in 2 ms (measured on the audit log page at 1,000,000 audit rows). node-postgres reads DATABASE_URL
 * after these settings, so an `?options=` given there replaces this one (add `-c jit=off` to it).
 */
const CONNECTION_OPTIONS = "-c jit=off";
