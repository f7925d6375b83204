import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ASSIGNMENT_MESSAGES } from "~/domain/validation/assignment";
import { loadAdminApplication } from "~/server/applications/staff-application-page.server";
import { listApplicationsPage } from "~/server/applications/staff-applications.server";
import { assignApplication, assignmentAction } from "~/server/applications/assignment.server";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import { applicationAssignments, applicationEvents, auditLog, loanApplications, requestItems } from "~/server/platform/db/schema.server";
import { applicationRow } from "../helpers/application-rows";
import { setUpTestConfig } from "../helpers/temp-config";
import { testTargets, useTestDatabase } from "../helpers/test-db";
import { seedApplicant, seedStaff } from "../helpers/seed";

/**
 * Assignment (issue 22): Assign to Me and Reassign (active admins and loan officers only), with the
 * history row, the internal timeline entry and the audit row in one transaction; two assignments at
 * once both land in the history, the last one wins. The admin list's My Queue filter and Assigned To,
 * and the Reg B flag (complete 25 days or more, undecided) with request items open and answered.
 */

setUpTestConfig("assignment", { APP_SECRET: "a".repeat(48), PUBLIC_URL: "https://loans.example.com" });

function post(fields: Record<string, string>): Request {
  return new Request("http://localhost/admin/applications/x/assignment", { method: "POST", body: new URLSearchParams(fields) });
}

const DAY = 86_400_000;

describe.each(testTargets)("Assignment, My Queue and the Reg B flag on %s", (target) => {
  const database = useTestDatabase({ target, global: true });
  const db = () => database().db;
  let n = 0;
  const staff = {} as Record<"admin" | "officer" | "auditor" | "gone", AuditActor>;

  beforeAll(async () => {
    for (const [key, role, name] of [
      ["admin", "admin", "Ada Admin"],
      ["officer", "loan_officer", "Olive Officer"],
      ["auditor", "auditor", "Audrey Auditor"],
      ["gone", "loan_officer", "Gone Officer"],
    ] as const) {
      const id = `as-${key}-${target}`;
      const email = `as-${key}-${target}@example.com`;
      await seedStaff(db(), { id, name, email, role, deactivatedAt: key === "gone" ? new Date() : undefined });
      staff[key] = { id, name, email };
    }
  });

  async function application(overrides: Record<string, unknown> = {}) {
    n += 1;
    const id = `as-applicant-${target}-${n}`;
    const email = `as.applicant${n}.${target}@example.com`;
    await seedApplicant(db(), { id, name: `Applicant ${n}`, email, profile: { fullName: `Robin Applicant${n}`, phone: "2125550100" } });
    const [app] = await db().insert(loanApplications).values(applicationRow(id, overrides)).returning();
    return app!;
  }

  const assignedTo = async (id: string) => (await db().select({ a: loanApplications.assignedTo }).from(loanApplications).where(eq(loanApplications.id, id)))[0]!.a;
  const history = (id: string) => db().select().from(applicationAssignments).where(eq(applicationAssignments.applicationId, id));

  it("Assign to Me: the assignee, the history row, an internal timeline entry and the audit row", async () => {
    const app = await application();
    const answer = await assignmentAction(post({ intent: "assign-me" }), app.id, { actor: staff.officer, request: {} }, db());
    expect(answer).toMatchObject({ status: 200, body: { ok: true, intent: "assign-me", toast: { title: "Assigned to Olive Officer" } } });
    expect(await assignedTo(app.id)).toBe(staff.officer.id);
    expect(await history(app.id)).toMatchObject([{ assignedTo: staff.officer.id, assignedBy: staff.officer.id }]);
    const events = await db().select().from(applicationEvents).where(and(eq(applicationEvents.applicationId, app.id), eq(applicationEvents.kind, "assigned")));
    expect(events).toMatchObject([{ internal: true, summary: "Assigned to Olive Officer." }]);
    const audit = await db().select().from(auditLog).where(and(eq(auditLog.action, "application.assign"), eq(auditLog.recordId, app.id)));
    expect(audit[0]!.details).toMatchObject({ assignedTo: staff.officer.id, previous: null });
  });

  it("Reassign to another, then unassign: the history keeps both, newest first on the page", async () => {
    const app = await application();
    await assignApplication(app.id, staff.officer.id, { actor: staff.admin, request: {} }, db());
    expect((await assignmentAction(post({ intent: "assign", assigneeId: staff.admin.id }), app.id, { actor: staff.officer, request: {} }, db())).status).toBe(200);
    expect((await assignmentAction(post({ intent: "assign", assigneeId: "" }), app.id, { actor: staff.officer, request: {} }, db())).status).toBe(200);
    expect(await assignedTo(app.id)).toBeNull();
    const page = await loadAdminApplication(app.id, { actor: staff.admin, request: {} }, db());
    expect(page!.assignment.assignedTo).toBeNull();
    expect(page!.assignment.history.map((h) => h.assignedToName)).toEqual([null, "Ada Admin", "Olive Officer"]);
    expect(page!.assignment.staff.map((s) => s.name)).toEqual(expect.arrayContaining(["Ada Admin", "Olive Officer"]));
    expect(page!.assignment.staff.map((s) => s.name)).not.toContain("Audrey Auditor");
    expect(page!.assignment.staff.map((s) => s.name)).not.toContain("Gone Officer");
  });

  it("refuses an auditor, a deactivated officer, an unknown id and a bad intent (400); an unknown application is 404", async () => {
    const app = await application();
    for (const assigneeId of [staff.auditor.id, staff.gone.id, "no-such-user", "<script>"]) {
      const answer = await assignmentAction(post({ intent: "assign", assigneeId }), app.id, { actor: staff.admin, request: {} }, db());
      expect(answer.status).toBe(400);
      expect(answer.body.toast.description).toBe(ASSIGNMENT_MESSAGES.assignee);
    }
    expect((await assignmentAction(post({ intent: "assign" }), app.id, { actor: staff.admin, request: {} }, db())).status).toBe(400);
    expect((await assignmentAction(post({ intent: "take" }), app.id, { actor: staff.admin, request: {} }, db())).status).toBe(400);
    expect((await assignmentAction(post({ intent: "assign-me" }), randomUUID(), { actor: staff.admin, request: {} }, db())).status).toBe(404);
    expect(await history(app.id)).toHaveLength(0);
  });

  it("two assignments at once: both in the history, the application names the last", async () => {
    const app = await application();
    await Promise.all([assignApplication(app.id, staff.officer.id, { actor: staff.officer, request: {} }, db()), assignApplication(app.id, staff.admin.id, { actor: staff.admin, request: {} }, db())]);
    const rows = (await history(app.id)).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    expect(rows).toHaveLength(2);
    expect(await assignedTo(app.id)).toBe(rows[1]!.assignedTo);
  });

  it("My Queue: only the viewer's applications, counted per status; Assigned To on every card", async () => {
    const mine = await application();
    const theirs = await application();
    await assignApplication(mine.id, staff.officer.id, { actor: staff.officer, request: {} }, db());
    await assignApplication(theirs.id, staff.admin.id, { actor: staff.admin, request: {} }, db());
    const queue = await listApplicationsPage({ tab: "pending", page: 1, mine: true }, db(), staff.officer);
    expect(queue.mine).toBe(true);
    const ids = queue.applications.map((a) => a.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(theirs.id);
    expect(queue.applications.every((a) => a.assignedTo?.id === staff.officer.id)).toBe(true);
    expect(queue.counts.pending).toBe(queue.applications.length);
    const all = await listApplicationsPage({ tab: "pending", page: 1 }, db(), staff.officer);
    expect(all.mine).toBe(false);
    expect(all.applications.find((a) => a.id === theirs.id)?.assignedTo).toEqual({ id: staff.admin.id, name: "Ada Admin" });
  });

  it("the Reg B flag: complete 25 days with no decision is flagged with the due date; an open request item unflags; answered counts from the answer", async () => {
    const now = new Date();
    const old = await application();
    const fresh = await application();
    const waiting = await application();
    const answered = await application();
    const decided = await application();
    const at = (days: number) => new Date(now.getTime() - days * DAY);
    for (const app of [old, waiting, answered, decided]) await db().update(loanApplications).set({ submittedAt: at(26) }).where(eq(loanApplications.id, app.id));
    await db().update(loanApplications).set({ submittedAt: at(10) }).where(eq(loanApplications.id, fresh.id));
    await db().update(loanApplications).set({ status: "denied", reviewedAt: now, reviewedBy: staff.admin.id, decisionReasons: ["Insufficient income"] }).where(eq(loanApplications.id, decided.id));
    const item = (applicationId: string, userId: string, status: "requested" | "accepted", answeredAt: Date | null) =>
      db().insert(requestItems).values({ requestId: randomUUID(), applicationId, userId, kind: "question", dueDate: "2099-01-01", status, answeredAt });
    await item(waiting.id, waiting.userId, "requested", null);
    await item(answered.id, answered.userId, "accepted", at(3));

    const pages = await Promise.all([1, 2, 3, 4, 5].map((page) => listApplicationsPage({ tab: "pending", page }, db(), staff.admin, now)));
    const cards = new Map(pages.flatMap((p) => p.applications).map((a) => [a.id, a]));
    const oldDue = (await db().select({ d: sql<string>`(${loanApplications.submittedAt} + interval '30 days')::text` }).from(loanApplications).where(eq(loanApplications.id, old.id)))[0]!;
    expect(cards.get(old.id)!.regBDueAt).not.toBeNull();
    expect(new Date(cards.get(old.id)!.regBDueAt!).getTime()).toBe(new Date(oldDue.d).getTime());
    expect(cards.get(fresh.id)!.regBDueAt).toBeNull();
    expect(cards.get(waiting.id)!.regBDueAt).toBeNull();
    expect(cards.get(answered.id)!.regBDueAt).toBeNull();
    // Decided: not on the pending tab, and not flagged on its own.
    const denied = await listApplicationsPage({ tab: "denied", page: 1 }, db(), staff.admin, now);
    expect(denied.applications.find((a) => a.id === decided.id)?.regBDueAt ?? null).toBeNull();
    // The answer 26 days ago: flagged again.
    await db().update(requestItems).set({ answeredAt: at(26) }).where(eq(requestItems.applicationId, answered.id));
    const later = await Promise.all([1, 2, 3, 4, 5].map((page) => listApplicationsPage({ tab: "pending", page }, db(), staff.admin, now)));
    expect(later.flatMap((p) => p.applications).find((a) => a.id === answered.id)!.regBDueAt).not.toBeNull();
  });
});
