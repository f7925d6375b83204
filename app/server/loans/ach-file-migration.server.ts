import { and, asc, gt } from "drizzle-orm";
import { ENCRYPTION_PURPOSES } from "~/server/platform/crypto/encryption-purposes.server";
import { forEachBatch, migrateValue, replaceReadValue, storeMigrated, type MigrationRun, type Tally } from "~/server/platform/crypto/value-migration.server";
import { countRows } from "~/server/platform/db/paging.server";
import type { Db } from "~/server/platform/db/client.server";
import { achBatches } from "~/server/platform/db/schema.server";

/**
 * Stored NACHA files (full account and routing numbers) in 'Encrypt Existing Bank Data'
 * (staff/encryption-migration runs the whole): sealed when still plain text, re-encrypted on rotation.
 */
export async function migrateAchFiles(db: Db, run: MigrationRun, ach: Tally): Promise<void> {
  const { keys, batchSize, notCurrent } = run;
  await forEachBatch(
    db,
    (lastId) =>
      db
        .select({ id: achBatches.id, content: achBatches.content })
        .from(achBatches)
        .where(and(lastId ? gt(achBatches.id, lastId) : undefined, notCurrent(achBatches.content)))
        .orderBy(asc(achBatches.id))
        .limit(Math.min(batchSize, 20)),
    async (tx, rows) => {
      for (const row of rows)
        await storeMigrated(
          ach,
          migrateValue(row.content, ENCRYPTION_PURPOSES.achFile, keys),
          replaceReadValue(tx, achBatches, { key: achBatches.id, keyValue: row.id, column: "content", read: row.content }),
        );
    },
  );
}

export async function achFileCount(db: Db): Promise<number> {
  return countRows(db, achBatches);
}
