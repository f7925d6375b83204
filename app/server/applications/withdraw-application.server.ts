import { and, eq, inArray, sql } from "drizzle-orm";
import { fromStatuses, mayMake, transitionFor } from "~/domain/application-lifecycle";
import { APPLICATION_WITHDRAW_MESSAGES } from "~/domain/validation/application-withdraw";
import { PROPOSAL_CLOSED_BY } from "~/domain/validation/approval";
import { writeAudit, type AuditActor, type Caller } from "~/server/platform/audit/audit.server";
import { getConfig } from "~/server/platform/config.server";
import { recordEvent } from "~/server/conversation/index.server";
import { getDb, type Db } from "~/server/platform/db/client.server";
import { loanApplications } from "~/server/platform/db/schema.server";
import { enqueueEmail } from "~/server/platform/mail/outbox.server";
import { applicationWithdrawnEmail } from "~/server/applications/withdrawal-emails.server";
import { closeOpenProposal } from "~/server/applications/reviews.server";
import { AppError } from "~/server/platform/http/app-error.server";
import { UUID_PATTERN } from "~/domain/ids";

/**
 * Withdraw Application: the signed-in applicant ends their own application while it is pending or
 * under review (the lifecycle's 'withdraw'). The application's row is locked first (FOR UPDATE, the
 * order every writer here takes), so a withdrawal and a staff decision at once are serialised: the
 * second finds the status moved on (a staff decision's conditional UPDATE then changes nothing and is
 * refused with WITHDRAWN_BY_APPLICANT; a withdrawal after a decision is a 409). In the same
 * transaction: who and when on the row (withdrawn_by, withdrawn_at), any open four-eyes proposal sent
 * back, the timeline event, the audit row and the applicant's confirmation. No notice of action
 * taken: Regulation B owes none for a withdrawn application (12 CFR 1002.9(e)).
 */


export type Withdrawer = { id: string; name: string; email: string; isStaff: boolean };

/** The timeline's line, read by both sides (the applicant sees it as their own entry). */
export const WITHDRAWN_SUMMARY = "The applicant withdrew the application. No decision will be made on it.";

export async function withdrawApplication(applicationId: unknown, caller: Caller<Withdrawer>, db: Db = getDb(), now: Date = new Date()): Promise<{ withdrawnAt: Date }> {
  const { actor: user, request } = caller;
  // Staff see applications on /admin; another's id, a malformed one and staff all get the same 404.
  if (!mayMake("withdraw", { isStaff: user.isStaff, mfaVerified: false }) || typeof applicationId !== "string" || !UUID_PATTERN.test(applicationId)) {
    throw new AppError("withdrawal", 404, APPLICATION_WITHDRAW_MESSAGES.notFound);
  }
  const id = applicationId.toLowerCase();
  const { to } = transitionFor("withdraw");
  const from = fromStatuses("withdraw");
  return db.transaction(async (tx) => {
    const [app] = await tx
      .select({ status: loanApplications.status, loanType: loanApplications.loanType })
      .from(loanApplications)
      .where(and(eq(loanApplications.id, id), eq(loanApplications.userId, user.id)))
      .for("update");
    if (!app) throw new AppError("withdrawal", 404, APPLICATION_WITHDRAW_MESSAGES.notFound);
    if (!(from as string[]).includes(app.status)) {
      throw new AppError("withdrawal", 409, app.status === to ? APPLICATION_WITHDRAW_MESSAGES.alreadyWithdrawn : APPLICATION_WITHDRAW_MESSAGES.decided);
    }
    // Conditional as well as locked: the status it changes is the one just read, whatever runs beside it.
    const changed = await tx
      .update(loanApplications)
      .set({ status: to, withdrawnAt: now, withdrawnBy: user.id, updatedAt: sql`now()` })
      .where(and(eq(loanApplications.id, id), eq(loanApplications.userId, user.id), inArray(loanApplications.status, from)))
      .returning({ id: loanApplications.id });
    if (changed.length === 0) throw new AppError("withdrawal", 409, APPLICATION_WITHDRAW_MESSAGES.decided);

    const actor: AuditActor = { id: user.id, name: user.name, email: user.email };
    await closeOpenProposal(tx, id, { actor, request }, PROPOSAL_CLOSED_BY.withdraw);
    await recordEvent(tx, { applicationId: id, ownerId: user.id, kind: "withdrawn", actorId: user.id, actorSide: "applicant", summary: WITHDRAWN_SUMMARY });
    await writeAudit(tx, {
      actor,
      action: "application.withdraw",
      table: "loan_applications",
      recordId: id,
      details: { from: app.status, to, withdrawnBy: "applicant", withdrawnAt: now.toISOString(), adverseActionNotice: "not required (12 CFR 1002.9(e))" },
      request,
    });
    await enqueueEmail(tx, {
      to: user.email,
      ...applicationWithdrawnEmail({ loanType: app.loanType, applicationId: id, baseUrl: getConfig().publicUrl, withdrawnAt: now }),
    });
    return { withdrawnAt: now };
  });
}
