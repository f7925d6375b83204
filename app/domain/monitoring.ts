/**
 * Activity monitoring constants and pure rules (docs/requirements.md §3, §10), shared by the page and the server
 * module. No I/O here.
 */

/** Time ranges in hours with their button labels: 6h, 1d, 3d, 7d. */
export const MONITORING_RANGES = [
  { hours: 6, label: "6h", description: "last 6 hours" },
  { hours: 24, label: "1d", description: "last 24 hours" },
  { hours: 72, label: "3d", description: "last 3 days" },
  { hours: 168, label: "7d", description: "last 7 days" },
] as const;

export type MonitoringHours = (typeof MONITORING_RANGES)[number]["hours"];

export const DEFAULT_MONITORING_HOURS: MonitoringHours = 24;

/** The detailed audit log shows at most this many entries (the latest in the range). */
export const AUDIT_LOG_LIMIT = 50;

/** The page reloads its data this often while visible. */
export const MONITORING_REFRESH_MS = 30_000;

/** The `?hours=` value as one of the allowed ranges; anything else means the default (24). */
export function parseMonitoringHours(value: string | null | undefined): MonitoringHours {
  const n = Number(value);
  return MONITORING_RANGES.find((r) => r.hours === n)?.hours ?? DEFAULT_MONITORING_HOURS;
}

export type ActionCountBadgeVariant = "destructive" | "default" | "secondary";

/** Action-count badge: red above 100, default above 50, secondary otherwise (docs/requirements.md §10). */
export function actionCountBadgeVariant(count: number): ActionCountBadgeVariant {
  if (count > 100) return "destructive";
  if (count > 50) return "default";
  return "secondary";
}

/** Per-admin activity in the chosen range (docs/requirements.md §4 "Admin activity summary row"). */
export type AdminActivitySummaryRow = {
  adminId: string;
  adminName: string;
  adminEmail: string;
  /** ISO 8601. */
  lastAction: string;
  /** Distinct table names, sorted. */
  tablesAccessed: string[];
  actionCount: number;
};

/** One audit entry as the page shows it; `details` is already a plain-text summary. */
export type AuditLogRow = {
  id: number;
  /** ISO 8601. */
  createdAt: string;
  adminName: string;
  adminEmail: string | null;
  action: string;
  tableName: string | null;
  recordId: string | null;
  ipAddress: string | null;
  details: string;
};

export type MonitoringData =
  | {
      ok: true;
      hours: MonitoringHours;
      summary: AdminActivitySummaryRow[];
      log: AuditLogRow[];
      /** Entries in the range (the log shows the latest AUDIT_LOG_LIMIT of them). */
      totalInRange: number;
      /** ISO 8601, when the server read the data. */
      generatedAt: string;
    }
  | { ok: false; hours: MonitoringHours; generatedAt: string };
