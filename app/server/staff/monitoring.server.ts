import { eq } from "drizzle-orm";
import { logFailure } from "~/server/platform/log/describe-error.server";
import type { MonitoringData, MonitoringHours } from "~/domain/monitoring";
import { getConfig } from "~/server/platform/config.server";
import { getDb, type Db } from "~/server/platform/db/client.server";
import { userRoles } from "~/server/platform/db/schema.server";
import { countAuditEntries, getAdminAccessLog, getRecentAdminActivity } from "~/server/platform/audit/audit-activity.server";
import { staffMemberAccounts } from "~/server/accounts/index.server";

/**
 * Admin activity monitoring (docs/requirements.md §3 /admin/monitoring) and the security page's counts.
 * The audit log's reads are platform's (audit/audit-activity.server.ts: the log owns its tables).
 * Reading the audit log is deliberately not audited (that would log every look at the log, 30 s
 * apart, forever) and this module writes nothing at all.
 */

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

export type SecurityOverview = {
  /** New and reset passwords are checked against the breached-password range API. */
  breachCheckEnabled: boolean;
  admins: number;
  /** Admins whose authenticator enrolment is complete. */
  adminsWithMfa: number;
};

/** Facts for /admin/security (configuration and counts only; no client data). */
export async function getSecurityOverview(db: Db = getDb()): Promise<SecurityOverview> {
  const admins = await db.select({ userId: userRoles.userId }).from(userRoles).where(eq(userRoles.role, "admin"));
  // A handful of rows: the admins' accounts, to count those whose enrolment is complete.
  const accounts = await staffMemberAccounts(admins.map((a) => a.userId), db);
  return {
    breachCheckEnabled: getConfig().pwnedPasswordsUrl !== null,
    admins: admins.length,
    adminsWithMfa: accounts.filter((a) => a.mfaEnabledAt !== null).length,
  };
}
