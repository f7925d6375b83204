import { and, count, desc, eq, gte, isNotNull, sql } from "drizzle-orm";
import { logFailure } from "~/server/log/describe-error.server";
import {
  AUDIT_LOG_LIMIT,
  type AdminActivitySummaryRow,
  type AuditLogRow,
  type MonitoringData,
  type MonitoringHours,
} from "~/domain/monitoring";
import { getConfig } from "~/server/config.server";
import { getDb, type Db } from "~/server/db/client.server";
import { adminMfa, auditLog, userRoles } from "~/server/db/schema.server";

/**
 * Admin activity monitoring (docs/requirements.md §3 /admin/monitoring, §7 get_recent_admin_activity and
 * get_admin_access_log). Both queries filter on audit_log.created_at (audit_log_created_at_idx) and
 * aggregate in SQL. Reading the audit log is deliberately not audited (that would log every look at
 * the log, 30 s apart, forever) and this module writes nothing at all.
 */

/** The lower bound of the range, computed by the database clock (the one that stamped the rows). */
const since = (hours: number) => sql`now() - (${hours}::int * interval '1 hour')`;

const toIso = (value: unknown): string => (value instanceof Date ? value : new Date(String(value))).toISOString();

/** get_recent_admin_activity: one row per acting admin in the last `hours`, busiest first. */
export async function getRecentAdminActivity(hours: number, db: Db = getDb()): Promise<AdminActivitySummaryRow[]> {
  // Names and e-mails are copied into each audit row; the latest copy wins (an admin may be renamed).
  const rows = await db
    .select({
      adminId: sql<string>`${auditLog.actorId}`,
      adminName: sql<string | null>`(array_agg(${auditLog.actorName} order by ${auditLog.createdAt} desc, ${auditLog.id} desc))[1]`,
      adminEmail: sql<string | null>`(array_agg(${auditLog.actorEmail} order by ${auditLog.createdAt} desc, ${auditLog.id} desc))[1]`,
      lastAction: sql<Date | string>`max(${auditLog.createdAt})`,
      tablesAccessed: sql<string[] | null>`array_agg(distinct ${auditLog.tableName}) filter (where ${auditLog.tableName} is not null)`,
      actionCount: sql<number>`count(*)::int`,
    })
    .from(auditLog)
    .where(and(gte(auditLog.createdAt, since(hours)), isNotNull(auditLog.actorId)))
    .groupBy(auditLog.actorId)
    .orderBy(sql`count(*) desc`, sql`max(${auditLog.createdAt}) desc`)
    .limit(200);
  return rows.map((r) => ({
    adminId: r.adminId,
    adminName: r.adminName || "Unknown admin",
    adminEmail: r.adminEmail ?? "",
    lastAction: toIso(r.lastAction),
    tablesAccessed: [...(r.tablesAccessed ?? [])].sort(),
    actionCount: Number(r.actionCount),
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

/** How many audit entries the range holds. */
export async function countAuditEntries(hours: number, db: Db = getDb()): Promise<number> {
  const [row] = await db.select({ value: count() }).from(auditLog).where(gte(auditLog.createdAt, since(hours)));
  return Number(row?.value ?? 0);
}

/**
 * Everything the monitoring page shows. A failed query gives `{ ok: false }` (the page says
 * 'Failed to load monitoring data') instead of an error page.
 */
export async function loadMonitoring(hours: MonitoringHours, db: Db = getDb()): Promise<MonitoringData> {
  try {
    const summary = await getRecentAdminActivity(hours, db);
    const log = await getAdminAccessLog(hours, {}, db);
    const totalInRange = await countAuditEntries(hours, db);
    return { ok: true, hours, summary, log, totalInRange, generatedAt: new Date().toISOString() };
  } catch (error) {
    logFailure("monitoring", "could not load admin activity", error);
    return { ok: false, hours, generatedAt: new Date().toISOString() };
  }
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

export type SecurityOverview = {
  /** New and reset passwords are checked against the breached-password range API. */
  breachCheckEnabled: boolean;
  admins: number;
  /** Admins whose authenticator enrolment is complete. */
  adminsWithMfa: number;
};

/** Facts for /admin/security (configuration and counts only; no client data). */
export async function getSecurityOverview(db: Db = getDb()): Promise<SecurityOverview> {
  const [row] = await db
    .select({
      admins: sql<number>`count(*)::int`,
      withMfa: sql<number>`count(${adminMfa.enabledAt})::int`,
    })
    .from(userRoles)
    .leftJoin(adminMfa, eq(adminMfa.userId, userRoles.userId))
    .where(eq(userRoles.role, "admin"));
  return {
    breachCheckEnabled: getConfig().pwnedPasswordsUrl !== null,
    admins: Number(row?.admins ?? 0),
    adminsWithMfa: Number(row?.withMfa ?? 0),
  };
}
