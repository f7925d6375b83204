import { desc, eq, sql } from "drizzle-orm";
import { PERMISSIONS } from "~/domain/staff-permissions";
import {
  ASSIGNMENT_FAILED,
  ASSIGNMENT_MESSAGES,
  ASSIGNMENT_TOASTS,
  assignmentSchema,
  type AssignmentActionData,
  type AssignmentIntent,
} from "~/domain/validation/assignment";
import { issuesToFieldErrors } from "~/domain/validation/field-errors";
import type { AssignmentPanelView, StaffOption } from "~/domain/views/admin-application-page";
import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";
import { recordEvent } from "~/server/conversation/index.server";
import { getDb, type Db, type DbOrTx } from "~/server/platform/db/client.server";
import { applicationAssignments, loanApplications } from "~/server/platform/db/schema.server";
import { accountNamesIn, peopleByIds, personById } from "~/server/accounts/index.server";
import { activeStaffIdsSql, holdActiveStaff } from "~/server/staff/index.server";
import { readActionForm, type ServiceAnswer } from "~/server/platform/http/action-answer.server";
import { logFailure } from "~/server/platform/log/describe-error.server";
import { AppError, actionRefusal, stampedRefusal } from "~/server/platform/http/app-error.server";
import { UUID_PATTERN } from "~/domain/ids";

/**
 * Assignment: each application has an assigned officer. Assign to Me, or Reassign to any
 * active staff member whose role works applications (or nobody). One transaction: the application's
 * row locked (so two assignments at once are applied one after the other, each with its history
 * row), the new assignee, a history row, an internal timeline entry and the audit row.
 */

/** The roles that may be assigned: those that work applications (the permission table decides). */
const WORKING_ROLES = PERMISSIONS["applications.work"];

/** Active staff who may work applications, by name: the Reassign choices. */
export async function assignableStaff(db: DbOrTx = getDb()): Promise<StaffOption[]> {
  return accountNamesIn(activeStaffIdsSql(WORKING_ROLES), db);
}

/** Assigns the application to `assigneeId` (null: unassigned). AssignmentRefused: 404 no application, 400 not assignable. */
export async function assignApplication(
  applicationId: string, assigneeId: string | null, { actor, request }: Caller, db: Db = getDb(),
): Promise<{ assignedTo: string | null; assigneeName: string | null }> {
  return db.transaction(async (tx) => {
    // The parent row first, as every writer of an application does.
    const [app] = await tx
      .select({ userId: loanApplications.userId, previous: loanApplications.assignedTo })
      .from(loanApplications)
      .where(eq(loanApplications.id, applicationId))
      .for("update");
    if (!app) throw new AppError("assignment", 404, ASSIGNMENT_MESSAGES.notFound);
    let assigneeName: string | null = null;
    if (assigneeId !== null) {
      // FOR SHARE: a deactivation or role change waits for this assignment (and vice versa).
      const held = await holdActiveStaff(tx, assigneeId, WORKING_ROLES);
      const staff = held ? await personById(assigneeId, tx) : null;
      if (!staff) throw new AppError("assignment", 400, ASSIGNMENT_MESSAGES.assignee);
      assigneeName = staff.name;
    }
    await tx.update(loanApplications).set({ assignedTo: assigneeId, assignedAt: assigneeId === null ? null : new Date(), updatedAt: new Date() }).where(eq(loanApplications.id, applicationId));
    // Stamped after the row lock, not at the transaction's start: two assignments at once are listed
    // in the order they took effect, the last one being what the application names.
    await tx.insert(applicationAssignments).values({ applicationId, assignedTo: assigneeId, assignedBy: actor.id, createdAt: sql`clock_timestamp()` });
    await recordEvent(tx, {
      applicationId,
      ownerId: app.userId,
      kind: "assigned",
      actorId: actor.id,
      actorSide: "staff",
      summary: assigneeName ? `Assigned to ${assigneeName}.` : "Unassigned.",
      internal: true,
    });
    await writeAudit(tx, {
      actor,
      action: "application.assign",
      table: "loan_applications",
      recordId: applicationId,
      details: { assignedTo: assigneeId, previous: app.previous },
      request,
    });
    return { assignedTo: assigneeId, assigneeName };
  });
}

/** The page's Assignment panel: who it is assigned to, the history (newest first) and the Reassign choices. */
export async function assignmentPanel(applicationId: string, db: DbOrTx = getDb()): Promise<AssignmentPanelView> {
  const [[assigned], history, staff] = await Promise.all([
    db
      .select({ id: loanApplications.assignedTo, at: loanApplications.assignedAt })
      .from(loanApplications)
      .where(eq(loanApplications.id, applicationId))
      .limit(1),
    db
      .select({ id: applicationAssignments.id, assignedTo: applicationAssignments.assignedTo, assignedBy: applicationAssignments.assignedBy, at: applicationAssignments.createdAt })
      .from(applicationAssignments)
      .where(eq(applicationAssignments.applicationId, applicationId))
      .orderBy(desc(applicationAssignments.createdAt), desc(applicationAssignments.id)),
    assignableStaff(db),
  ]);
  const names = await peopleByIds([assigned?.id, ...history.flatMap((h) => [h.assignedTo, h.assignedBy])], db);
  const nameOf = (id: string | null | undefined) => (id ? (names.get(id)?.name ?? null) : null);
  const current = assigned && { ...assigned, name: nameOf(assigned.id) };
  return {
    assignedTo: current?.id ? { id: current.id, name: current.name ?? "Former staff member" } : null,
    assignedAt: current?.at?.toISOString() ?? null,
    history: history.map((h) => ({
      id: h.id,
      assignedToName: h.assignedTo === null ? null : (nameOf(h.assignedTo) ?? "Former staff member"),
      assignedByName: nameOf(h.assignedBy) ?? "Former staff member",
      at: h.at.toISOString(),
    })),
    staff,
  };
}

export type AssignmentAnswer = ServiceAnswer<AssignmentActionData>;


const refusal = stampedRefusal<AssignmentIntent>(ASSIGNMENT_FAILED);

/**
 * POST /admin/applications/:id/assignment after the route's guards (same origin, staff who work
 * applications): intent assign-me | assign (assigneeId, "" for unassigned).
 */
export async function assignmentAction(request: Request, urlId: string | undefined, caller: Caller, db: Db = getDb()): Promise<AssignmentAnswer> {
  const read = await readActionForm(request, (message): AssignmentActionData => refusal(400, null, message).body, {
    unreadableAsEmpty: true,
  });
  if (!read.ok) return read.answer;
  const rawIntent = read.form.get("intent");
  const assigneeRaw = read.form.get("assigneeId");
  const parsed = assignmentSchema.safeParse({ intent: rawIntent, ...(typeof assigneeRaw === "string" ? { assigneeId: assigneeRaw } : {}) });
  const intent = rawIntent === "assign-me" || rawIntent === "assign" ? rawIntent : null;
  if (!parsed.success) return refusal(400, intent, parsed.error.issues[0]?.message ?? ASSIGNMENT_MESSAGES.intent, issuesToFieldErrors(parsed.error));
  if (!urlId || !UUID_PATTERN.test(urlId)) return refusal(404, intent, ASSIGNMENT_MESSAGES.notFound);
  const input = parsed.data;
  const target = input.intent === "assign-me" ? caller.actor.id : input.assigneeId === "" ? null : input.assigneeId;
  try {
    const result = await assignApplication(urlId.toLowerCase(), target, caller, db);
    return { status: 200, body: { ok: true, intent: input.intent, toast: ASSIGNMENT_TOASTS.assigned(result.assigneeName), at: Date.now() } };
  } catch (error) {
    if (error instanceof AppError) return actionRefusal(error, { title: ASSIGNMENT_FAILED, stamped: true }, { intent: input.intent });
    logFailure("admin", "assigning an application failed", error, { admin: caller.actor.id, applicationId: urlId });
    return refusal(500, input.intent, "Something went wrong on our side. Please try again.");
  }
}
