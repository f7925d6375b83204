import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { findMigrationsFolder, runMigrations } from "~/server/platform/db/migrate.server";
import { openTestDatabase, type TestDatabase, type TestTarget } from "./test-db";

/**
 * The migrations folder as it was when `lastIdx` was the newest migration: its SQL files and a
 * journal cut there. Tests of a migration's backfill migrate to just before it, write rows the old
 * way, then run the rest. The folders go when the test file ends.
 */
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

export function migrationsUpTo(lastIdx: number): string {
  const source = findMigrationsFolder();
  const target = fs.mkdtempSync(path.join(os.tmpdir(), `portal-migrations-${String(lastIdx).padStart(4, "0")}-`));
  folders.push(target);
  const journal = JSON.parse(fs.readFileSync(path.join(source, "meta", "_journal.json"), "utf8")) as { entries: { idx: number; tag: string }[] };
  journal.entries = journal.entries.filter((entry) => entry.idx <= lastIdx);
  fs.mkdirSync(path.join(target, "meta"));
  fs.writeFileSync(path.join(target, "meta", "_journal.json"), JSON.stringify(journal));
  for (const entry of journal.entries) fs.copyFileSync(path.join(source, `${entry.tag}.sql`), path.join(target, `${entry.tag}.sql`));
  return target;
}

/**
 * For the tests of one migration's backfill on `target`: a function that opens a new database migrated
 * up to `lastIdx` (the migration under test comes after it). The databases go when the test file ends.
 */
export function databasesBeforeMigration(target: TestTarget): (lastIdx: number) => Promise<TestDatabase> {
  const opened: TestDatabase[] = [];
  afterAll(async () => {
    for (const database of opened.splice(0)) await database.cleanup();
  });
  return async (lastIdx) => {
    const database = await openTestDatabase({ target, migrate: false });
    opened.push(database);
    await runMigrations(database, migrationsUpTo(lastIdx));
    return database;
  };
}
