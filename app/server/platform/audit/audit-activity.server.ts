import { desc, gte, sql } from "drizzle-orm";
import { AUDIT_LOG_LIMIT, type AdminActivitySummaryRow, type AuditLogRow } from "~/domain/monitoring";
import { getDb, type Db } from "~/server/platform/db/client.server";
import { auditActivityHourly, auditLog } from "~/server/platform/db/schema.server";

/**
 * Reading the audit log for admin activity monitoring (docs/requirements.md §3 /admin/monitoring, §7
 * get_recent_admin_activity and get_admin_access_log). The log reads its 50 rows off
 * audit_log_created_at_id_idx (the log's exact order); the summary and the total read the hourly
 * rollups (decision 0044) plus the range's first partial hour, aggregated in SQL. The page itself is
 * staff/monitoring.server.ts.
 */

/** The lower bound of the range, computed by the database clock (the one that stamped the rows). */
const since = (hours: number) => sql`now() - (${hours}::int * interval '1 hour')`;

const toIso = (value: unknown): string => (value instanceof Date ? value : new Date(String(value))).toISOString();

/**
 * The range split for the hourly rollups (audit_activity_hourly, drizzle/0012): entries from `since`
 * up to the next whole UTC hour (`edge`) are read from audit_log (at most an hour of them), every
 * later hour from the rollups (hours × actors rows), so the page's cost does not grow with the log.
 *
 * Both bounds are written into each condition, not joined from a one-row subquery: the planner then
 * estimates the rows of the range from the statistics (an hour's worth) instead of a fixed fraction of
 * the whole log, which at a million entries priced the statement past jit_above_cost and compiled it
 * on every page view (decision 0051).
 */
const edge = (hours: number) => sql`(date_trunc('hour', ${since(hours)}, 'UTC') + interval '1 hour')`;

/** get_recent_admin_activity: one row per acting admin in the last `hours`, busiest first. */
export async function getRecentAdminActivity(hours: number, db: Db = getDb()): Promise<AdminActivitySummaryRow[]> {
  // Names and e-mails are copied into each audit row; the latest copy wins (an admin may be renamed).
  const result = await db.execute<{
    admin_id: string;
    admin_name: string | null;
    admin_email: string | null;
    last_action: Date | string;
    tables_accessed: string[] | null;
    action_count: number;
  }>(sql`
    with parts as (
      select h.actor_id, h.actions as n, h.last_at, h.last_id, h.actor_name, h.actor_email, h.tables
        from ${auditActivityHourly} h where h.hour >= ${edge(hours)} and h.actor_id <> ''
      union all
      select l.actor_id, 1, l.created_at, l.id, l.actor_name, l.actor_email, case when l.table_name is null then '{}'::text[] else array[l.table_name] end
        from ${auditLog} l where l.created_at >= ${since(hours)} and l.created_at < ${edge(hours)} and l.actor_id is not null
    ),
    tabs as (select p.actor_id, array_agg(distinct t order by t) as tables from parts p, unnest(p.tables) as t group by p.actor_id)
    select p.actor_id as admin_id,
      (array_agg(p.actor_name order by p.last_at desc, p.last_id desc))[1] as admin_name,
      (array_agg(p.actor_email order by p.last_at desc, p.last_id desc))[1] as admin_email,
      max(p.last_at) as last_action,
      min(tabs.tables) as tables_accessed,
      sum(p.n)::int as action_count
    from parts p left join tabs on tabs.actor_id = p.actor_id
    group by p.actor_id
    order by sum(p.n) desc, max(p.last_at) desc
    limit 200`);
  const rows = (result as unknown as { rows: { admin_id: string; admin_name: string | null; admin_email: string | null; last_action: Date | string; tables_accessed: string[] | null; action_count: number }[] }).rows;
  return rows.map((r) => ({
    adminId: r.admin_id,
    adminName: r.admin_name || "Unknown admin",
    adminEmail: r.admin_email ?? "",
    lastAction: toIso(r.last_action),
    tablesAccessed: [...(r.tables_accessed ?? [])].sort(),
    actionCount: Number(r.action_count),
  }));
}

/** get_admin_access_log: the latest `limit` (at most 50) entries of the last `hours`, newest first. */
export async function getAdminAccessLog(hours: number, { limit = AUDIT_LOG_LIMIT }: { limit?: number } = {}, db: Db = getDb()): Promise<AuditLogRow[]> {
  const rows = await db
    .select({
      id: auditLog.id,
      createdAt: auditLog.createdAt,
      actorName: auditLog.actorName,
      actorEmail: auditLog.actorEmail,
      actorId: auditLog.actorId,
      action: auditLog.action,
      tableName: auditLog.tableName,
      recordId: auditLog.recordId,
      ipAddress: auditLog.ipAddress,
      details: auditLog.details,
    })
    .from(auditLog)
    .where(gte(auditLog.createdAt, since(hours)))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(Math.max(1, Math.min(AUDIT_LOG_LIMIT, Math.floor(limit))));
  return rows.map((r) => ({
    id: Number(r.id),
    createdAt: r.createdAt.toISOString(),
    adminName: r.actorName || (r.actorId ? "Unknown admin" : "System"),
    adminEmail: r.actorEmail,
    action: r.action,
    tableName: r.tableName,
    recordId: r.recordId,
    ipAddress: r.ipAddress,
    details: summariseDetails(r.details),
  }));
}

/** How many audit entries the range holds (the hourly rollups, and the first partial hour's entries). */
export async function countAuditEntries(hours: number, db: Db = getDb()): Promise<number> {
  const result = await db.execute<{ n: string | number | null }>(sql`
    select (select coalesce(sum(h.actions), 0) from ${auditActivityHourly} h where h.hour >= ${edge(hours)})
         + (select count(*) from ${auditLog} l where l.created_at >= ${since(hours)} and l.created_at < ${edge(hours)}) as n`);
  return Number((result as unknown as { rows: { n: string | number | null }[] }).rows[0]?.n ?? 0);
}

const MAX_VALUE_CHARS = 80;

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function describeValue(value: unknown): string {
  if (value === null || value === undefined) return "none";
  if (typeof value === "string") return clip(value, MAX_VALUE_CHARS);
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  if (Array.isArray(value)) {
    if (value.every((v) => v === null || ["string", "number", "boolean"].includes(typeof v))) {
      return clip(value.map((v) => String(v)).join("; "), MAX_VALUE_CHARS);
    }
    return `${value.length} item${value.length === 1 ? "" : "s"}`;
  }
  try {
    return clip(JSON.stringify(value), MAX_VALUE_CHARS);
  } catch {
    return "(object)";
  }
}

/**
 * An audit row's JSON details as one line of plain text ("decision: approve, reasons: a; b"),
 * control characters removed and clipped to `max` characters. Rendered as text, never as HTML.
 */
export function summariseDetails(details: unknown, max = 240): string {
  if (!details || typeof details !== "object" || Array.isArray(details)) return details == null ? "" : clip(describeValue(details), max);
  const text = Object.entries(details as Record<string, unknown>)
    .map(([key, value]) => `${key}: ${describeValue(value)}`)
    .join(", ")
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]+/g, " ");
  return clip(text, max);
}
