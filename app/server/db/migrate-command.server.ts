import { ConfigError, loadConfig } from "~/server/config.server";
import { openDatabase } from "./client.server";
import { DataDirLockedError } from "./data-dir-lock.server";
import { runMigrations } from "./migrate.server";

/**
 * The deployment's migrate step: applies pending migrations to the configured database (DATABASE_URL,
 * else the embedded one in DATA_DIR), says what it did, and returns the process exit code. Run as
 * `npm run migrate` from the sources, or `node server.js --migrate` from a build (the container).
 * Instances still migrate at start-up (a no-op after this step), under the same advisory lock.
 */
export async function migrateCommand(
  env: NodeJS.ProcessEnv,
  io: { log: (line: string) => void; error: (line: string) => void } = console,
): Promise<number> {
  try {
    const config = loadConfig(env);
    const database = config.databaseUrl
      ? await openDatabase({ databaseUrl: config.databaseUrl, poolSize: 2 })
      : await openDatabase({ dataDir: config.dataDir });
    try {
      const { applied, total } = await runMigrations(database);
      io.log(
        applied > 0
          ? `Applied ${applied} migration${applied === 1 ? "" : "s"} (${total} in total) to ${database.describe}.`
          : `Nothing to apply: all ${total} migrations are already in ${database.describe}.`,
      );
    } finally {
      await database.close();
    }
    return 0;
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      io.error(`Cannot migrate: ${error.message}`);
      io.error("A running server already applied the migrations at its start-up; stop it first to run this step by itself.");
    } else if (error instanceof ConfigError) {
      io.error(`Cannot migrate: ${error.message}`);
    } else {
      // Drizzle wraps driver errors in "Failed query: …"; the driver's own message says what went wrong.
      const cause = (error as { cause?: unknown }).cause;
      io.error(`Cannot migrate: ${cause instanceof Error ? cause.message : (error as Error).message}`);
    }
    return 1;
  }
}
