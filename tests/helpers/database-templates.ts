import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "~/server/platform/db/client.server";
import { runMigrations } from "~/server/platform/db/migrate.server";

/**
 * Migrated databases the integration suites copy instead of migrating their own. Opening a test
 * database used to run every migration on it; over the run's hundred-odd databases (each file, each
 * target) that was minutes of the CI's budget. The global setup migrates one embedded database and
 * dumps it to a file, and (with TEST_DATABASE_URL) migrates one PostgreSQL database to serve as
 * CREATE DATABASE's template; openTestDatabase starts from those. Both are made by the same
 * runMigrations a server runs, once per run, so every run still applies every migration; the
 * migration tests themselves migrate from empty and from earlier points.
 */

/** Where the global setup says the templates are; unset (a file run without the setup): migrate as before. */
export const PGLITE_TEMPLATE_ENV = "TEST_PGLITE_TEMPLATE";
export const POSTGRES_TEMPLATE_ENV = "TEST_POSTGRES_TEMPLATE";

/** An in-memory PGlite, migrated, dumped as an uncompressed tar to a new file; returns the file. */
export async function makePgliteTemplate(): Promise<string> {
  const database = await openDatabase({ memory: true });
  try {
    await runMigrations(database);
    const dump = await database.pglite!.dumpDataDir("none");
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "portal-test-template-")), "pgdata.tar");
    fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    return file;
  } finally {
    await database.close();
  }
}

/** The PGlite template's bytes, read once per test file. */
let pgliteTemplate: Blob | null | undefined;
export function pgliteTemplateBlob(): Blob | null {
  if (pgliteTemplate !== undefined) return pgliteTemplate;
  const file = process.env[PGLITE_TEMPLATE_ENV];
  pgliteTemplate = file && fs.existsSync(file) ? new Blob([fs.readFileSync(file)]) : null;
  return pgliteTemplate;
}

/** The migrated PostgreSQL database new test databases are copied from, or null. */
export function postgresTemplateName(): string | null {
  return process.env[POSTGRES_TEMPLATE_ENV] || null;
}
