// npm run migrate: applies pending migrations to the configured database (DATABASE_URL, else the
// embedded one in DATA_DIR) and exits. A deployment runs it once before starting or replacing
// instances, so a schema change never waits on the first instance's start-up. Instances still migrate
// at start-up (a no-op after this), under the same PostgreSQL advisory lock, so running this while
// instances start is safe too.
import { ConfigError, loadConfig } from "~/server/config.server";
import { openDatabase } from "~/server/db/client.server";
import { DataDirLockedError } from "~/server/db/data-dir-lock.server";
import { runMigrations } from "~/server/db/migrate.server";

/** Drizzle wraps driver errors in "Failed query: …"; the driver's own message says what went wrong. */
function reason(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error ? cause.message : (error as Error).message;
}

try {
  const config = loadConfig();
  const database = config.databaseUrl
    ? await openDatabase({ databaseUrl: config.databaseUrl, poolSize: 2 })
    : await openDatabase({ dataDir: config.dataDir });
  try {
    const { applied, total } = await runMigrations(database);
    console.log(
      applied > 0
        ? `Applied ${applied} migration${applied === 1 ? "" : "s"} (${total} in total) to ${database.describe}.`
        : `Nothing to apply: all ${total} migrations are already in ${database.describe}.`,
    );
  } finally {
    await database.close();
  }
} catch (error) {
  if (error instanceof DataDirLockedError) {
    console.error(`Cannot migrate: ${error.message}`);
    console.error("A running server already applied the migrations at its start-up; stop it first to run this step by itself.");
  } else if (error instanceof ConfigError) {
    console.error(`Cannot migrate: ${error.message}`);
  } else {
    console.error(`Cannot migrate: ${reason(error)}`);
  }
  process.exit(1);
}
