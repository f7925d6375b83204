import { count, sql } from "drizzle-orm";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import {
  actionCountBadgeVariant,
  AUDIT_LOG_LIMIT,
  DEFAULT_MONITORING_HOURS,
  parseMonitoringHours,
  type MonitoringData,
} from "~/domain/monitoring";
import { MonitoringPage } from "~/components/admin/monitoring/monitoring-page";
import { getAdminAccessLog, getRecentAdminActivity, summariseDetails } from "~/server/platform/audit/audit-activity.server";
import { getSecurityOverview, loadMonitoring } from "~/server/staff/monitoring.server";
import type { Db } from "~/server/platform/db/client.server";
import { adminMfa, auditLog } from "~/server/platform/db/schema.server";
import { setUpTestConfig } from "../helpers/temp-config";
import { useTestDatabase } from "../helpers/test-db";
import { seedStaff, seedUser } from "../helpers/seed";

/** Activity monitoring queries (docs/requirements.md §3, §8, §10) against a real database. */

setUpTestConfig("monitoring", { APP_SECRET: "m".repeat(48) });

/** Inserts one audit row `hoursAgo` in the past, with plain SQL (the table only accepts inserts). */
async function auditAt(
  db: Db,
  hoursAgo: number,
  row: { actorId: string | null; actorName?: string | null; actorEmail?: string | null; action: string; table?: string | null; recordId?: string | null; details?: Record<string, unknown> },
) {
  await db.execute(sql`
    insert into audit_log (actor_id, actor_name, actor_email, action, table_name, record_id, details, ip_address, created_at)
    values (${row.actorId}, ${row.actorName ?? null}, ${row.actorEmail ?? null}, ${row.action}, ${row.table ?? null}, ${row.recordId ?? null},
            ${JSON.stringify(row.details ?? {})}::jsonb, '203.0.113.7', now() - (${hoursAgo}::float8 * interval '1 hour'))`);
}

describe("action-count badge rule", () => {
  it("is secondary up to 50, default from 51 to 100, destructive above 100", () => {
    expect(actionCountBadgeVariant(0)).toBe("secondary");
    expect(actionCountBadgeVariant(1)).toBe("secondary");
    expect(actionCountBadgeVariant(50)).toBe("secondary");
    expect(actionCountBadgeVariant(51)).toBe("default");
    expect(actionCountBadgeVariant(100)).toBe("default");
    expect(actionCountBadgeVariant(101)).toBe("destructive");
    expect(actionCountBadgeVariant(5000)).toBe("destructive");
  });

  it("accepts only the four ranges, defaulting to 24 hours", () => {
    expect(parseMonitoringHours("6")).toBe(6);
    expect(parseMonitoringHours("24")).toBe(24);
    expect(parseMonitoringHours("72")).toBe(72);
    expect(parseMonitoringHours("168")).toBe(168);
    for (const bad of [null, undefined, "", "12", "-6", "6.5", "168; drop table audit_log", "1e3"]) expect(parseMonitoringHours(bad)).toBe(24);
    expect(DEFAULT_MONITORING_HOURS).toBe(24);
  });
});

describe("admin activity summary (get_recent_admin_activity)", () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const ada = { actorId: "admin-ada", actorName: "Ada Admin", actorEmail: "ada@example.com" };
  const bob = { actorId: "admin-bob", actorName: "Bob Reviewer", actorEmail: "bob@example.com" };

  beforeAll(async () => {
    // Ada: 3 in the last 6 h, 2 more 30 h ago (under an older name), 1 at 100 h.
    await auditAt(db(), 1, { ...ada, action: "applications.list", table: "loan_applications" });
    await auditAt(db(), 2, { ...ada, action: "client.view", table: "profiles", recordId: "user-1" });
    await auditAt(db(), 5.5, { ...ada, action: "ssn.reveal", table: "loan_applications", recordId: "app-1" });
    await auditAt(db(), 30, { ...ada, actorName: "Ada Old Name", action: "document.link", table: "loan_documents" });
    await auditAt(db(), 31, { ...ada, actorName: "Ada Old Name", action: "document.list", table: "loan_documents" });
    await auditAt(db(), 100, { ...ada, action: "bank.reveal", table: "bank_accounts" });
    // Bob: one recent without a table, one at 50 h, one at 200 h (outside every range).
    await auditAt(db(), 0.5, { ...bob, action: "admin.mfa" });
    await auditAt(db(), 50, { ...bob, action: "application.approve", table: "loan_applications" });
    await auditAt(db(), 200, { ...bob, action: "application.deny", table: "loan_applications" });
    // A row with no actor is not an admin's activity.
    await auditAt(db(), 1, { actorId: null, action: "records.dispose", table: "loan_documents" });
  });

  const byId = async (hours: number) => Object.fromEntries((await getRecentAdminActivity(hours, db())).map((r) => [r.adminId, r]));

  it("counts each admin's actions inside the range only", async () => {
    expect(Object.keys(await byId(6)).sort()).toEqual(["admin-ada", "admin-bob"]);
    expect((await byId(6))["admin-ada"]!.actionCount).toBe(3);
    expect((await byId(6))["admin-bob"]!.actionCount).toBe(1);
    expect((await byId(24))["admin-ada"]!.actionCount).toBe(3);
    expect((await byId(72))["admin-ada"]!.actionCount).toBe(5);
    expect((await byId(72))["admin-bob"]!.actionCount).toBe(2);
    expect((await byId(168))["admin-ada"]!.actionCount).toBe(6);
    expect((await byId(168))["admin-bob"]!.actionCount).toBe(2);
  });

  it("lists the distinct tables accessed, the latest name and e-mail, and the last action time", async () => {
    const six = await byId(6);
    expect(six["admin-ada"]).toMatchObject({ adminName: "Ada Admin", adminEmail: "ada@example.com", tablesAccessed: ["loan_applications", "profiles"] });
    expect(six["admin-bob"]!.tablesAccessed).toEqual([]);
    const seventyTwo = await byId(72);
    expect(seventyTwo["admin-ada"]!.tablesAccessed).toEqual(["loan_applications", "loan_documents", "profiles"]);
    expect(seventyTwo["admin-ada"]!.adminName).toBe("Ada Admin");

    const [newest] = await db()
      .select({ at: sql<string>`max(${auditLog.createdAt})::text` })
      .from(auditLog)
      .where(sql`${auditLog.actorId} = 'admin-ada'`);
    const last = new Date(six["admin-ada"]!.lastAction).getTime();
    expect(Math.abs(last - new Date(newest!.at).getTime())).toBeLessThan(1000);
    expect(Date.now() - last).toBeGreaterThan(0.9 * 3600_000);
    expect(Date.now() - last).toBeLessThan(1.1 * 3600_000);
  });

  it("orders the busiest admin first", async () => {
    const rows = await getRecentAdminActivity(168, db());
    expect(rows.map((r) => r.adminId)).toEqual(["admin-ada", "admin-bob"]);
  });

  it("the range filter can use the created_at index", async () => {
    // Tiny tables are scanned sequentially; with sequential scans off the planner must pick the index.
    const plan = await db().transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      return tx.execute(sql`explain select count(*) from audit_log where created_at >= now() - (24 * interval '1 hour')`);
    });
    expect(JSON.stringify(plan)).toMatch(/audit_log_created_at_id_idx/);
  });
});

describe("detailed audit log (get_admin_access_log)", () => {
  const database = useTestDatabase();
  const db = () => database().db;

  beforeAll(async () => {
    // 60 entries over the last hour (minute i), and 5 older than a day.
    for (let i = 0; i < 60; i++) {
      await auditAt(db(), i / 60, { actorId: "admin-cy", actorName: "Cy", actorEmail: "cy@example.com", action: "client.view", table: "profiles", recordId: `user-${i}` });
    }
    for (let i = 0; i < 5; i++) await auditAt(db(), 48 + i, { actorId: "admin-cy", actorName: "Cy", action: "document.list", table: "loan_documents" });
  });

  it("returns at most the latest 50 entries, newest first", async () => {
    const log = await getAdminAccessLog(24, {}, db());
    expect(log).toHaveLength(AUDIT_LOG_LIMIT);
    expect(log.map((r) => r.recordId)).toEqual(Array.from({ length: 50 }, (_, i) => `user-${i}`));
    const times = log.map((r) => new Date(r.createdAt).getTime());
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(log[0]).toMatchObject({ adminName: "Cy", adminEmail: "cy@example.com", action: "client.view", tableName: "profiles", ipAddress: "203.0.113.7" });
    // A larger limit is capped at 50.
    expect(await getAdminAccessLog(168, { limit: 500 }, db())).toHaveLength(50);
  });

  it("excludes entries older than the range", async () => {
    const recent = await getAdminAccessLog(24, { limit: 50 }, db());
    expect(recent.some((r) => r.action === "document.list")).toBe(false);
    const week = await loadMonitoring(168, db());
    expect(week.ok && week.totalInRange).toBe(65);
    const sixHours = await loadMonitoring(6, db());
    expect(sixHours.ok && sixHours.totalInRange).toBe(60);
    expect(sixHours.ok && sixHours.summary).toEqual([expect.objectContaining({ adminId: "admin-cy", actionCount: 60, tablesAccessed: ["profiles"] })]);
  });

  it("reading the log writes nothing (not even an audit row)", async () => {
    const before = await db().select({ n: count() }).from(auditLog);
    await loadMonitoring(24, db());
    await loadMonitoring(168, db());
    const after = await db().select({ n: count() }).from(auditLog);
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it("answers with an error state instead of throwing when a query fails", async () => {
    const broken = { select: () => { throw new Error("connection lost"); } } as unknown as Db;
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
      const result = await loadMonitoring(24, broken);
      expect(result).toMatchObject({ ok: false, hours: 24 });
    } finally {
      console.error = original;
    }
    expect(errors).toHaveLength(1);
  });
});

describe("details are summarised as text", () => {
  it("turns JSON details into one line", () => {
    expect(summariseDetails({ decision: "approve", rating: 5 })).toBe("decision: approve, rating: 5");
    expect(summariseDetails({ reasons: ["Low income", "Short history"], ok: true, none: null })).toBe("reasons: Low income; Short history, ok: true, none: none");
    expect(summariseDetails({ nested: { a: 1 } })).toBe('nested: {"a":1}');
    expect(summariseDetails({})).toBe("");
    expect(summariseDetails(null)).toBe("");
    expect(summariseDetails({ note: "line1\nline2\u0000" })).toBe("note: line1 line2 ");
    expect(summariseDetails({ long: "x".repeat(500) }).length).toBeLessThanOrEqual(240);
  });

  it("renders markup in details and names as text, never as HTML", () => {
    const data: MonitoringData = {
      ok: true,
      hours: 24,
      generatedAt: new Date().toISOString(),
      totalInRange: 1,
      summary: [{ adminId: "a", adminName: "<b>Eve</b>", adminEmail: "eve@example.com", lastAction: new Date().toISOString(), tablesAccessed: ["profiles"], actionCount: 101 }],
      log: [
        {
          id: 1,
          createdAt: new Date().toISOString(),
          adminName: "<b>Eve</b>",
          adminEmail: "eve@example.com",
          action: "client.view",
          tableName: "profiles",
          recordId: "<script>alert(1)</script>",
          ipAddress: "203.0.113.7",
          details: summariseDetails({ note: "<img src=x onerror=alert(1)>" }),
        },
      ],
    };
    const Stub = createRoutesStub([{ path: "/admin/monitoring", Component: () => createElement(MonitoringPage, { data, jobs: { ok: true, jobs: [] }, canRetryJobs: false }) }]);
    const html = renderToString(createElement(Stub, { initialEntries: ["/admin/monitoring"] }));
    expect(html).not.toContain("<img src=x");
    expect(html).not.toContain("<script>alert");
    expect(html).not.toContain("<b>Eve</b>");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(html).toContain('data-variant="destructive"');
    expect(html).toContain("review this volume now");
  });
});

describe("the page's error state", () => {
  it("says 'Failed to load monitoring data' and keeps the range buttons and the advice", () => {
    const data: MonitoringData = { ok: false, hours: 72, generatedAt: new Date().toISOString() };
    const Stub = createRoutesStub([{ path: "/admin/monitoring", Component: () => createElement(MonitoringPage, { data, jobs: { ok: true, jobs: [] }, canRetryJobs: false }) }]);
    const html = renderToString(createElement(Stub, { initialEntries: ["/admin/monitoring?hours=72"] }));
    expect(html).toContain('role="alert"');
    expect(html).toContain("Failed to load monitoring data");
    expect(html).toMatch(/aria-current="true"[^>]*data-testid="range-72"/);
    expect(html).toContain("Security Recommendations");
    expect(html).not.toContain('data-testid="audit-log"');
  });
});

describe("security overview", () => {
  const database = useTestDatabase();

  it("counts admins and those with an authenticator, and reports the breach check setting", async () => {
    const db = database().db;
    for (const id of ["sec-a", "sec-b"]) await seedStaff(db, { id, name: id, email: `${id}@example.com`, role: "admin" });
    await seedUser(db, { id: "sec-c", name: "sec-c", email: "sec-c@example.com" });
    await db.insert(adminMfa).values([
      { userId: "sec-a", secretEncrypted: "x", backupCodeHashes: [], enabledAt: new Date() },
      { userId: "sec-b", secretEncrypted: "y", backupCodeHashes: [] },
    ]);
    expect(await getSecurityOverview(db)).toEqual({ breachCheckEnabled: false, admins: 2, adminsWithMfa: 1 });
  });
});
