import { ConfigError, loadConfig, setConfig, type AppConfig } from "~/server/platform/config.server";
import { openDatabase, setDatabase, type Database } from "./client.server";
import { DataDirLockedError } from "./data-dir-lock.server";
import { runMigrations } from "./migrate.server";

/**
 * What the one-off commands (npm run migrate, retention, backup, restore, create-admin, demo) share:
 * the configured database opened for one run, and one way to say why a run failed.
 */

/** Where a command writes its lines (console, or a capture in tests). */
export type CommandIo = { log: (line: string) => void; error: (line: string) => void };

/**
 * The configured database: DATABASE_URL with a small pool (a command runs beside the servers), else the
 * embedded one in DATA_DIR, whose folder lock refuses while a server holds it.
 */
export function openConfiguredDatabase(config: AppConfig): Promise<Database> {
  return config.databaseUrl
    ? openDatabase({ databaseUrl: config.databaseUrl, poolSize: 2 })
    : openDatabase({ dataDir: config.dataDir });
}

/** Runs `body` on the configured database brought to the latest migration, and closes it whatever happens. */
export async function withMigratedDatabase<T>(config: AppConfig, body: (database: Database) => Promise<T>): Promise<T> {
  const database = await openConfiguredDatabase(config);
  try {
    await runMigrations(database);
    return await body(database);
  } finally {
    await database.close();
  }
}

/**
 * For commands that call the server's own modules (which read getConfig() and getDb()): installs the
 * configuration and the migrated database as a running server would, then runs `body`.
 */
export async function withAppDatabase<T>(body: (database: Database) => Promise<T>): Promise<T> {
  const config = loadConfig();
  setConfig(config);
  return withMigratedDatabase(config, (database) => {
    setDatabase(database);
    return body(database);
  });
}

export type FailureWording = {
  /** What to do when the embedded database's folder is held by a running server. */
  lockedHint: string;
  /** Errors whose own message explains them (a configuration error always does). */
  expected?: readonly (abstract new (...args: never[]) => Error)[];
  /** false: say the error's own message even where it is Drizzle's "Failed query: …" wrapper around a driver error. */
  driverCause?: boolean;
};

/** How the data-changing scripts (create-admin, demo) word a failure: the error's own message. */
export const SCRIPT_FAILURE_WORDING: FailureWording = {
  lockedHint: "Stop the server first (the embedded database serves one process at a time), then run this again.",
  driverCause: false,
};

/** Writes "Cannot <what>: <reason>" (and the hint for a locked data folder); returns the exit code 1. */
export function explainFailure(what: string, error: unknown, io: CommandIo, wording: FailureWording): 1 {
  if (error instanceof DataDirLockedError) {
    io.error(`Cannot ${what}: ${error.message}`);
    io.error(wording.lockedHint);
  } else if (error instanceof ConfigError || wording.expected?.some((kind) => error instanceof kind)) {
    io.error(`Cannot ${what}: ${(error as Error).message}`);
  } else {
    const cause = (error as { cause?: unknown }).cause;
    io.error(`Cannot ${what}: ${wording.driverCause !== false && cause instanceof Error ? cause.message : (error as Error).message}`);
  }
  return 1;
}
