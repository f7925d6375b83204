import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { runMigrations } from "~/server/platform/db/migrate.server";
import { databasesBeforeMigration } from "../helpers/migrations-up-to";
import { testTargets } from "../helpers/test-db";

/**
 * Migration 0019 gives every NACHA file made before it the effective date it was written with: the
 * next weekday after the UTC day it was created (Friday, Saturday and Sunday files settle on Monday).
 */

describe.each(testTargets)("migration 0019 backfills ach_batches.effective_date on %s", (target) => {
  const openBefore = databasesBeforeMigration(target);

  it("is the next weekday after the file's UTC creation day", async () => {
    const database = await openBefore(18);
    const made = {
      "2026-11-24T15:00:00Z": "2026-11-25", // Tuesday → Wednesday
      "2026-11-27T23:30:00Z": "2026-11-30", // Friday (UTC) → Monday
      "2026-11-28T10:00:00Z": "2026-11-30", // Saturday → Monday
      "2026-11-29T10:00:00Z": "2026-11-30", // Sunday → Monday
      "2026-11-30T03:00:00Z": "2026-12-01", // Monday → Tuesday
    };
    for (const createdAt of Object.keys(made))
      await database.db.execute(
        sql`insert into ach_batches (created_at, entry_count, total_cents, file_name, content) values (${createdAt}, 1, 100, ${`ach-${createdAt}`}, 'x')`,
      );
    await runMigrations(database);
    const rows = ((await database.db.execute(sql`select file_name, effective_date::text as effective from ach_batches order by created_at`)) as unknown as {
      rows: { file_name: string; effective: string }[];
    }).rows;
    expect(Object.fromEntries(rows.map((r) => [r.file_name.slice(4), r.effective]))).toEqual(made);
  });
});
