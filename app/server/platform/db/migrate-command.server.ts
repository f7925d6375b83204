import { loadConfig, setConfig } from "~/server/platform/config.server";
import type { Database } from "./client.server";
import { explainFailure, openConfiguredDatabase, type CommandIo } from "./command.server";
import { runMigrations } from "./migrate.server";

/**
 * The deployment's migrate step: applies pending migrations to the configured database (DATABASE_URL,
 * else the embedded one in DATA_DIR), says what it did, and returns the process exit code. Run as
 * `npm run migrate` from the sources, or `node server.js --migrate` from a build (the container).
 * Instances still migrate at start-up (a no-op after this step), under the same advisory lock.
 * `afterMigrations` runs the data steps that need the settings (server/data-migrations.ts).
 */
export async function migrateCommand(env: NodeJS.ProcessEnv, io: CommandIo = console, afterMigrations?: (database: Database) => Promise<string[]>): Promise<number> {
  try {
    const config = loadConfig(env);
    const database = await openConfiguredDatabase(config);
    try {
      const { applied, total } = await runMigrations(database);
      io.log(
        applied > 0
          ? `Applied ${applied} migration${applied === 1 ? "" : "s"} (${total} in total) to ${database.describe}.`
          : `Nothing to apply: all ${total} migrations are already in ${database.describe}.`,
      );
      // The data steps read the settings, and the server's modules read them through getConfig().
      if (afterMigrations) {
        setConfig(config);
        for (const line of await afterMigrations(database)) io.log(line);
      }
    } finally {
      await database.close();
    }
    return 0;
  } catch (error) {
    return explainFailure("migrate", error, io, {
      lockedHint: "A running server already applied the migrations at its start-up; stop it first to run this step by itself.",
    });
  }
}
