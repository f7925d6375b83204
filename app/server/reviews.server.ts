import { and, eq, inArray, lt, sql } from "drizzle-orm";
import { fromStatuses, transitionFor } from "~/domain/application-lifecycle";
import { monthlyPayment } from "~/domain/loan-math";
import { getConfig } from "~/server/config.server";
import { getDb, type Db } from "~/server/db/client.server";
import { approvedLoans, loanApplications, requestItems, user as userTable } from "~/server/db/schema.server";
import { enqueueEmail } from "~/server/mail/outbox.server";
import { applicationApprovedEmail, applicationDeniedEmail } from "~/server/mail/templates.server";
import { recordEvent } from "~/server/conversation/timeline.server";
import { todayUtc } from "~/server/conversation/requests.server";
import { applicationIncompleteEmail } from "~/server/mail/incomplete-emails.server";
import { CLOSE_INCOMPLETE_NOT_YET } from "~/domain/validation/review";
import { writeAudit, type AuditActor, type RequestInfo } from "./audit.server";

/**
 * Review decisions. The lifecycle (~/domain/application-lifecycle) says which transition each decision
 * makes (pending or under review → approved, denied, incomplete; pending → under review); the status change is a conditional UPDATE
 * (… WHERE status IN (<the transition's from>)), so an application is decided only once, and of two admins deciding at once exactly one
 * wins and the other is told the application was already decided. The decision, the approved loan,
 * the applicant's e-mail and the audit row commit together.
 */

export class ReviewConflict extends Error {
  constructor(message = "This application has already been decided.") {
    super(message);
    this.name = "ReviewConflict";
  }
}

/** No such application (the page answers 404, never saying more). */
export class ReviewNotFound extends Error {
  constructor() {
    super("This application does not exist.");
    this.name = "ReviewNotFound";
  }
}

export type ApprovalTerms = { approvedAmount: number; interestRate: number; termMonths: number };

async function applicantOf(db: Db, applicationId: string) {
  const [row] = await db
    .select({ app: loanApplications, accountEmail: userTable.email })
    .from(loanApplications)
    .innerJoin(userTable, eq(userTable.id, loanApplications.userId))
    .where(eq(loanApplications.id, applicationId))
    .limit(1);
  return row;
}

export async function approveApplication(
  applicationId: string,
  terms: ApprovalTerms,
  actor: AuditActor,
  request: RequestInfo = {},
  db: Db = getDb(),
): Promise<{ approvedLoanId: string }> {
  const found = await applicantOf(db, applicationId);
  if (!found) throw new ReviewConflict("This application does not exist.");
  const payment = monthlyPayment(terms.approvedAmount, terms.interestRate, terms.termMonths);
  const { to } = transitionFor("approve");
  const from = fromStatuses("approve");
  return db.transaction(async (tx) => {
    const decided = await tx
      .update(loanApplications)
      .set({ status: to, reviewedAt: sql`now()`, reviewedBy: actor.id, updatedAt: sql`now()` })
      .where(and(eq(loanApplications.id, applicationId), inArray(loanApplications.status, from)))
      .returning({ id: loanApplications.id });
    if (decided.length === 0) throw new ReviewConflict();
    const [loan] = await tx
      .insert(approvedLoans)
      .values({
        userId: found.app.userId,
        applicationId,
        status: "active",
        approvedAmount: terms.approvedAmount,
        balance: terms.approvedAmount,
        monthlyPayment: payment,
        interestRate: terms.interestRate,
        termMonths: terms.termMonths,
      })
      .returning({ id: approvedLoans.id });
    await enqueueEmail(tx, {
      to: found.accountEmail,
      ...applicationApprovedEmail({
        applicantName: `${found.app.firstName} ${found.app.lastName}`,
        loanType: found.app.loanType,
        approvedAmount: terms.approvedAmount,
        applicationId,
        baseUrl: getConfig().publicUrl,
      }),
    });
    await recordEvent(tx, { applicationId, ownerId: found.app.userId, kind: "approved", actorId: actor.id, actorSide: "staff" });
    await writeAudit(tx, {
      actor,
      action: "application.approve",
      table: "loan_applications",
      recordId: applicationId,
      details: { ...terms, monthlyPayment: payment, approvedLoanId: loan!.id },
      request,
    });
    return { approvedLoanId: loan!.id };
  });
}

export async function denyApplication(
  applicationId: string,
  reasons: string[],
  actor: AuditActor,
  request: RequestInfo = {},
  db: Db = getDb(),
): Promise<void> {
  const found = await applicantOf(db, applicationId);
  if (!found) throw new ReviewConflict("This application does not exist.");
  const { to } = transitionFor("deny");
  const from = fromStatuses("deny");
  await db.transaction(async (tx) => {
    const decided = await tx
      .update(loanApplications)
      .set({ status: to, reviewedAt: sql`now()`, reviewedBy: actor.id, decisionReasons: reasons, updatedAt: sql`now()` })
      .where(and(eq(loanApplications.id, applicationId), inArray(loanApplications.status, from)))
      .returning({ id: loanApplications.id });
    if (decided.length === 0) throw new ReviewConflict();
    await enqueueEmail(tx, {
      to: found.accountEmail,
      ...applicationDeniedEmail({
        applicantName: `${found.app.firstName} ${found.app.lastName}`,
        loanType: found.app.loanType,
        applicationId,
        reasons,
        baseUrl: getConfig().publicUrl,
      }),
    });
    await recordEvent(tx, { applicationId, ownerId: found.app.userId, kind: "denied", actorId: actor.id, actorSide: "staff" });
    await writeAudit(tx, { actor, action: "application.deny", table: "loan_applications", recordId: applicationId, details: { reasons }, request });
  });
}

/**
 * Start Review (issue 19): the lifecycle's 'start-review' (pending → under_review) as one conditional
 * UPDATE, so of two admins pressing it at once one starts the review and the other is told it already
 * left pending. The timeline event (which also refreshes the applicant's open page) and the audit row
 * commit with it.
 */
export async function startReview(applicationId: string, actor: AuditActor, request: RequestInfo = {}, db: Db = getDb()): Promise<void> {
  const { to } = transitionFor("start-review");
  const from = fromStatuses("start-review");
  await db.transaction(async (tx) => {
    const started = await tx
      .update(loanApplications)
      .set({ status: to, updatedAt: sql`now()` })
      .where(and(eq(loanApplications.id, applicationId), inArray(loanApplications.status, from)))
      .returning({ id: loanApplications.id, userId: loanApplications.userId });
    const row = started[0];
    if (!row) {
      const [exists] = await tx.select({ status: loanApplications.status }).from(loanApplications).where(eq(loanApplications.id, applicationId)).limit(1);
      if (!exists) throw new ReviewNotFound();
      throw new ReviewConflict(exists.status === "under_review" ? "This application is already under review." : "This application has already been decided.");
    }
    await recordEvent(tx, { applicationId, ownerId: row.userId, kind: "review_started", actorId: actor.id, actorSide: "staff" });
    await writeAudit(tx, { actor, action: "application.start_review", table: "loan_applications", recordId: applicationId, details: { from, to }, request });
  });
}

/** Thrown when Close as Incomplete is asked for before any open request's due date has passed (409). */
export class CloseIncompleteNotYet extends ReviewConflict {
  constructor() {
    super(CLOSE_INCOMPLETE_NOT_YET);
    this.name = "CloseIncompleteNotYet";
  }
}

/**
 * Close as Incomplete (issue 19; Reg B 12 CFR 1002.9(c)): allowed once an item of a request is still
 * open (requested, or rejected and not answered again) after its due date. The lifecycle's
 * 'close-incomplete' is one conditional UPDATE; then the overdue open items are locked (FOR UPDATE
 * re-checks them, so an answer committed meanwhile takes its item out) and, if none is left, the
 * whole transaction rolls back. The timeline event, the audit row and the notice of action taken to
 * the applicant commit with the status, or nothing does.
 */
export async function closeAsIncomplete(
  applicationId: string,
  actor: AuditActor,
  request: RequestInfo = {},
  db: Db = getDb(),
  now: Date = new Date(),
): Promise<void> {
  const found = await applicantOf(db, applicationId);
  if (!found) throw new ReviewNotFound();
  const { to } = transitionFor("close-incomplete");
  const from = fromStatuses("close-incomplete");
  await db.transaction(async (tx) => {
    // The application's row first (parent before children, the order every writer here takes).
    const closed = await tx
      .update(loanApplications)
      .set({ status: to, reviewedAt: sql`now()`, reviewedBy: actor.id, updatedAt: sql`now()` })
      .where(and(eq(loanApplications.id, applicationId), inArray(loanApplications.status, from)))
      .returning({ id: loanApplications.id });
    if (closed.length === 0) throw new ReviewConflict();
    const overdue = await tx
      .select({ id: requestItems.id })
      .from(requestItems)
      .where(
        and(
          eq(requestItems.applicationId, applicationId),
          inArray(requestItems.status, ["requested", "rejected"]),
          lt(requestItems.dueDate, todayUtc(now)),
        ),
      )
      .for("update");
    // None: the whole transaction rolls back, the status change with it.
    if (overdue.length === 0) throw new CloseIncompleteNotYet();
    await enqueueEmail(tx, {
      to: found.accountEmail,
      ...applicationIncompleteEmail({ loanType: found.app.loanType, applicationId, baseUrl: getConfig().publicUrl, decisionDate: now }),
    });
    await recordEvent(tx, {
      applicationId,
      ownerId: found.app.userId,
      kind: "closed_incomplete",
      actorId: actor.id,
      actorSide: "staff",
      summary: "The requested information was not received by the due date.",
    });
    await writeAudit(tx, {
      actor,
      action: "application.close_incomplete",
      table: "loan_applications",
      recordId: applicationId,
      details: { overdueItems: overdue.map((i) => i.id) },
      request,
    });
  });
}
