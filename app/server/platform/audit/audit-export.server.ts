import { and, asc, gt, gte, lt, lte, max, min, sql } from "drizzle-orm";
import type { Db } from "~/server/platform/db/client.server";
import { auditActivityHourly, auditLog } from "~/server/platform/db/schema.server";

/**
 * Reading the audit log in id (chain) order for its CSV export (staff/exports streams it). Rows written
 * after the export began are left out: the upper id bound is read once, so a busy system cannot make
 * the download endless.
 *
 * For a range of up to a month, between the range's smallest and largest id, which the hourly rollups
 * keep per hour and actor (drizzle/0015; the range is whole UTC days, so whole hours): the first batch
 * starts inside the primary key at the range's first entry instead of walking it from the oldest entry,
 * and the last stops at the range's last entry. Entries are numbered as they are written, so the
 * interval holds the range's entries and, at most, those of transactions that were open across its
 * edges (decision 0051).
 */

/**
 * Ranges up to this long read their id interval from the hourly rollups (at most 744 hours × actors
 * rows). A longer range reads none: the interval would cost a read of every hour of it, and a long
 * range is mostly the whole log anyway, whose oldest entries the primary key finds first.
 */
export const AUDIT_ID_BOUNDS_MAX_DAYS = 31;
const DAY_MS = 86_400_000;

/** The id interval [firstId, maxId] that holds the range's entries. */
export async function auditIdBounds(start: Date, end: Date, db: Db): Promise<{ firstId: number; maxId: number }> {
  const [bound] = await db.select({ maxId: max(auditLog.id) }).from(auditLog);
  let firstId = 0;
  let maxId = Number(bound?.maxId ?? 0);
  if (end.getTime() - start.getTime() <= AUDIT_ID_BOUNDS_MAX_DAYS * DAY_MS) {
    const [ids] = await db
      .select({ first: min(auditActivityHourly.minId), last: max(auditActivityHourly.maxId) })
      .from(auditActivityHourly)
      .where(and(gte(auditActivityHourly.hour, start), lt(auditActivityHourly.hour, end)));
    // No rollup row: no entry in the range (an empty interval leaves every batch empty).
    firstId = ids?.first == null ? 1 : Number(ids.first);
    maxId = ids?.last == null ? 0 : Math.min(maxId, Number(ids.last));
  }
  return { firstId, maxId };
}

/** The next batch of the range's entries after id `after` (null: from `bounds.firstId`), up to `bounds.maxId`. */
export async function auditExportBatch(start: Date, end: Date, after: number | null, bounds: { firstId: number; maxId: number }, limit: number, db: Db) {
  return db
    .select({
      id: auditLog.id,
      createdAt: auditLog.createdAt,
      actorName: auditLog.actorName,
      actorEmail: auditLog.actorEmail,
      action: auditLog.action,
      tableName: auditLog.tableName,
      recordId: auditLog.recordId,
      ipAddress: auditLog.ipAddress,
      details: sql<string>`${auditLog.details}::text`,
      chainSeq: auditLog.chainSeq,
      rowHash: auditLog.rowHash,
    })
    .from(auditLog)
    .where(and(gte(auditLog.createdAt, start), lt(auditLog.createdAt, end), after !== null ? gt(auditLog.id, after) : gte(auditLog.id, bounds.firstId), lte(auditLog.id, bounds.maxId)))
    .orderBy(asc(auditLog.id))
    .limit(limit);
}
