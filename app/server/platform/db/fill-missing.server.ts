import { getTableColumns, getTableName, isNull } from "drizzle-orm";
import type { AnyPgColumn, PgTable, PgUpdateSetSource } from "drizzle-orm/pg-core";
import { writeAudit, type AuditAction } from "~/server/platform/audit/audit.server";
import type { Db } from "./client.server";

/**
 * A data step after the SQL migrations, for a value SQL cannot know (one from the settings): every row
 * whose `column` is still null gets `value`, with one audit row each naming the value and why, in one
 * transaction. A no-op once no row is missing it. Returns how many rows it filled.
 */
export async function fillMissingAudited<T extends PgTable>(
  db: Db,
  table: T,
  fill: { id: AnyPgColumn; column: keyof T["$inferInsert"] & string; value: unknown; action: AuditAction; details: Record<string, unknown> },
): Promise<number> {
  const column = getTableColumns(table)[fill.column] as AnyPgColumn;
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(table)
      .set({ [fill.column]: fill.value } as PgUpdateSetSource<T>)
      .where(isNull(column))
      .returning({ id: fill.id });
    for (const row of rows) {
      await writeAudit(tx, { actor: null, action: fill.action, table: getTableName(table), recordId: String(row.id), details: fill.details });
    }
    return rows.length;
  });
}
