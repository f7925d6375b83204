import fs from "node:fs";
import path from "node:path";
import { openDatabase } from "~/server/platform/db/client.server";
import { runMigrations } from "~/server/platform/db/migrate.server";
import { makePgliteTemplate, PGLITE_TEMPLATE_ENV, POSTGRES_TEMPLATE_ENV } from "../helpers/database-templates";
import { createScratchPostgresDatabase, TEST_DATABASE_URL } from "../helpers/test-db";

/**
 * Global setup of the unit and integration run: the migrated templates every test database starts
 * from (tests/helpers/database-templates.ts). Test files run in worker processes started after this
 * setup, which inherit its environment.
 */
export default async function setup() {
  const pgliteFile = await makePgliteTemplate();
  process.env[PGLITE_TEMPLATE_ENV] = pgliteFile;
  let dropPostgres: (() => Promise<void>) | undefined;
  if (TEST_DATABASE_URL) {
    const scratch = await createScratchPostgresDatabase();
    dropPostgres = scratch.drop;
    const database = await openDatabase({ databaseUrl: scratch.url, poolSize: 2 });
    try {
      await runMigrations(database);
    } finally {
      await database.close();
    }
    process.env[POSTGRES_TEMPLATE_ENV] = scratch.name;
  }
  return async () => {
    fs.rmSync(path.dirname(pgliteFile), { recursive: true, force: true });
    await dropPostgres?.();
  };
}
