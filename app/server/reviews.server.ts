import { and, eq, inArray, sql } from "drizzle-orm";
import { fromStatuses, transitionFor } from "~/domain/application-lifecycle";
import { monthlyPayment } from "~/domain/loan-math";
import { getConfig } from "~/server/config.server";
import { getDb, type Db } from "~/server/db/client.server";
import { approvedLoans, loanApplications, user as userTable } from "~/server/db/schema.server";
import { enqueueEmail } from "~/server/mail/outbox.server";
import { applicationApprovedEmail, applicationDeniedEmail } from "~/server/mail/templates.server";
import { recordEvent } from "~/server/conversation/timeline.server";
import { writeAudit, type AuditActor, type RequestInfo } from "./audit.server";

/**
 * Review decisions. The lifecycle (~/domain/application-lifecycle) says which transition each decision
 * makes (pending → approved, pending → denied); the status change is a conditional UPDATE
 * (… WHERE status = <the transition's from>), so an application is decided only once, and of two admins deciding at once exactly one
 * wins and the other is told the application was already decided. The decision, the approved loan,
 * the applicant's e-mail and the audit row commit together.
 */

export class ReviewConflict extends Error {
  constructor(message = "This application has already been decided.") {
    super(message);
    this.name = "ReviewConflict";
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
