import { and, desc, eq, inArray, ne, sql } from "drizzle-orm";
import { dollarsOf, formatMoney, percentOf, type Cents } from "~/domain/money";
import { OPEN_REVIEW_STATUSES } from "~/domain/application-lifecycle";
import {
  APPROVAL_FAILED,
  APPROVAL_MESSAGES,
  APPROVAL_TOASTS,
  approvalSchemaForIntent,
  type ApprovalActionData,
  type ApprovalIntent,
} from "~/domain/validation/approval";
import { issuesToFieldErrors } from "~/domain/validation/field-errors";
import type { ApprovalPanelView, ApprovalProposalView } from "~/domain/views/admin-application-page";
import { writeAudit, type AuditActor, type Caller } from "~/server/platform/audit/audit.server";
import { getConfig } from "~/server/platform/config.server";
import { recordEvent, recordStaffText } from "~/server/conversation/index.server";
import { getDb, type Db, type DbOrTx, type Tx } from "~/server/platform/db/client.server";
import { approvalProposals, loanApplications } from "~/server/platform/db/schema.server";
import { peopleByIds } from "~/server/accounts/index.server";
import { readActionForm, type ServiceAnswer } from "~/server/platform/http/action-answer.server";
import { logFailure } from "~/server/platform/log/describe-error.server";
import { lockApplication } from "~/server/applications/application-records.server";
import { approveInTransaction, conflictFor, prepareApproval, reviewConflict, type ApprovalTerms } from "~/server/applications/reviews.server";
import { WITHDRAWN_BY_APPLICANT } from "~/domain/validation/application-withdraw";
import { AppError, actionRefusal, isAppError, stampedRefusal } from "~/server/platform/http/app-error.server";
import { UUID_PATTERN } from "~/domain/ids";

/**
 * Four-eyes approval (decision 0037). An approval of FOUR_EYES_THRESHOLD or more is first a
 * proposal (its terms checked exactly as an approval's, before anything is written); a different
 * staff member confirms it, which makes the offer with the proposal's terms in the same transaction,
 * or sends it back with a comment. The proposer can never confirm their own proposal, whatever their
 * role: the confirming UPDATE says `proposed_by <> me`, and a CHECK constraint says it again.
 *
 * Lock order, as everywhere in decisions: the application's row first, then the proposal's, so a
 * confirmation racing a Deny waits instead of deadlocking.
 */


/** Whether an approval of this many cents needs a second staff member. */
export function needsSecondApprover(approvedAmountCents: Cents, thresholdCents: Cents = getConfig().fourEyesThresholdCents): boolean {
  return approvedAmountCents >= thresholdCents;
}

/**
 * Locks the application's row while it is open (pending or under review) and bumps updated_at, so
 * open pages and lists reload; ReviewConflict when it is decided, ProposalRefused(404) when missing.
 */
async function lockOpenApplication(tx: Tx, applicationId: string): Promise<{ userId: string }> {
  const [row] = await tx
    .update(loanApplications)
    .set({ updatedAt: sql`now()` })
    .where(and(eq(loanApplications.id, applicationId), inArray(loanApplications.status, OPEN_REVIEW_STATUSES)))
    .returning({ userId: loanApplications.userId });
  if (row) return row;
  const [exists] = await tx.select({ id: loanApplications.id }).from(loanApplications).where(eq(loanApplications.id, applicationId)).limit(1);
  if (!exists) throw new AppError("proposal", 404, APPROVAL_MESSAGES.notFound);
  throw await conflictFor(tx, applicationId);
}

/** The application's row locked (FOR UPDATE), whatever its status: decisions lock it before a proposal. */
async function lockForDecision(tx: Tx, applicationId: string): Promise<void> {
  const row = await lockApplication(tx, applicationId);
  if (!row) throw new AppError("proposal", 404, APPROVAL_MESSAGES.notFound);
  // The applicant's withdrawal sent the proposal back; say why rather than "already confirmed or sent back".
  if (row.status === "withdrawn") throw reviewConflict(WITHDRAWN_BY_APPLICANT);
}

/**
 * Proposes an approval: the terms are checked as Approve checks them (OfferTermsError), then, with the
 * application's row locked while it is open, one proposal row (the partial unique index allows one
 * open proposal per application: a second is a 409), an internal timeline entry and the audit row.
 */
export async function proposeApproval(
  applicationId: string, approval: ApprovalTerms, { actor, request }: Caller, db: Db = getDb(), now: Date = new Date(),
): Promise<{ proposalId: string }> {
  const prepared = await prepareApproval(applicationId, approval, db, now);
  const { terms, reasons, counteroffer } = prepared;
  return db.transaction(async (tx) => {
    const { userId } = await lockOpenApplication(tx, applicationId);
    const [proposal] = await tx
      .insert(approvalProposals)
      .values({
        applicationId,
        approvedAmountCents: terms.approvedAmountCents,
        interestRateMilli: terms.interestRateMilli,
        termMonths: terms.termMonths,
        originationFeeMilli: terms.originationFeeMilli,
        counterofferReasons: counteroffer ? reasons : [],
        proposedBy: actor.id,
      })
      // The only unique rule a new row can break is "one open proposal per application".
      .onConflictDoNothing()
      .returning({ id: approvalProposals.id });
    if (!proposal) throw new AppError("proposal", 409, APPROVAL_MESSAGES.alreadyOpen);
    await recordEvent(tx, {
      applicationId,
      ownerId: userId,
      kind: "approval_proposed",
      actorId: actor.id,
      actorSide: "staff",
      summary: `Approval of ${formatMoney(terms.approvedAmountCents)} proposed: another staff member must confirm it.`,
      internal: true,
    });
    await writeAudit(tx, {
      actor,
      action: "approval.propose",
      table: "approval_proposals",
      recordId: proposal.id,
      details: {
        applicationId,
        approvedAmountCents: terms.approvedAmountCents,
        interestRateMilli: terms.interestRateMilli,
        termMonths: terms.termMonths,
        originationFeeMilli: terms.originationFeeMilli,
        counteroffer,
        counterofferReasons: counteroffer ? reasons : [],
      },
      request,
    });
    return { proposalId: proposal.id };
  });
}


/** Why a conditional UPDATE of a proposal changed nothing: unknown (404), the proposer (403) or no longer open (409). */
async function whyNot(tx: Tx, proposalId: string, applicationId: string, actor: AuditActor, confirming: boolean): Promise<never> {
  const [row] = await tx
    .select({ status: approvalProposals.status, proposedBy: approvalProposals.proposedBy })
    .from(approvalProposals)
    .where(and(eq(approvalProposals.id, proposalId), eq(approvalProposals.applicationId, applicationId)))
    .limit(1);
  if (!row) throw new AppError("proposal", 404, APPROVAL_MESSAGES.notOpen);
  if (confirming && row.status === "proposed" && row.proposedBy === actor.id) throw new AppError("proposal", 403, APPROVAL_MESSAGES.ownProposal);
  throw new AppError("proposal", 409, APPROVAL_MESSAGES.notOpen);
}

/**
 * Confirm Approval: in one transaction, the proposal becomes confirmed (one conditional UPDATE: still
 * proposed and not proposed by me), the offer is made with its terms (Approve's own body, which also
 * moves the application to approved with its conditional UPDATE), the offer is recorded on the
 * proposal and both audit rows are written. Of two staff confirming at once, exactly one offer.
 */
export async function confirmProposal(
  applicationId: string, proposalId: string, caller: Caller, db: Db = getDb(), now: Date = new Date(),
): Promise<{ offerId: string }> {
  const { actor, request } = caller;
  return db.transaction(async (tx) => {
    await lockForDecision(tx, applicationId);
    const [proposal] = await tx
      .update(approvalProposals)
      .set({ status: "confirmed", decidedBy: actor.id, decidedAt: sql`now()` })
      .where(
        and(
          eq(approvalProposals.id, proposalId),
          eq(approvalProposals.applicationId, applicationId),
          eq(approvalProposals.status, "proposed"),
          ne(approvalProposals.proposedBy, actor.id),
        ),
      )
      .returning();
    if (!proposal) return whyNot(tx, proposalId, applicationId, actor, true);
    const prepared = await prepareApproval(
      applicationId,
      {
        approvedAmountCents: proposal.approvedAmountCents,
        interestRateMilli: proposal.interestRateMilli,
        termMonths: proposal.termMonths,
        originationFeeMilli: proposal.originationFeeMilli,
        counterofferReasons: proposal.counterofferReasons,
      },
      tx,
      now,
    );
    const { offerId } = await approveInTransaction(tx, prepared, caller);
    await tx.update(approvalProposals).set({ offerId }).where(eq(approvalProposals.id, proposal.id));
    await writeAudit(tx, {
      actor,
      action: "approval.confirm",
      table: "approval_proposals",
      recordId: proposal.id,
      details: { applicationId, proposedBy: proposal.proposedBy, offerId },
      request,
    });
    return { offerId };
  });
}

/**
 * Send Back: the open proposal becomes sent_back with the comment (the proposer may send back their
 * own: a withdrawal), an internal timeline entry and the audit row; Approve is then available again.
 */
export async function sendBackProposal(applicationId: string, proposalId: string, comment: string, { actor, request }: Caller, db: Db = getDb()): Promise<void> {
  await db.transaction(async (tx) => {
    await lockForDecision(tx, applicationId);
    const [proposal] = await tx
      .update(approvalProposals)
      .set({ status: "sent_back", decidedBy: actor.id, decidedAt: sql`now()`, comment })
      .where(and(eq(approvalProposals.id, proposalId), eq(approvalProposals.applicationId, applicationId), eq(approvalProposals.status, "proposed")))
      .returning({ id: approvalProposals.id });
    if (!proposal) return whyNot(tx, proposalId, applicationId, actor, false);
    // Open pages and lists reload (the application row's trigger tells every instance).
    const [app] = await tx.update(loanApplications).set({ updatedAt: sql`now()` }).where(eq(loanApplications.id, applicationId)).returning({ userId: loanApplications.userId });
    await recordStaffText(tx, { applicationId, ownerId: app!.userId, kind: "approval_sent_back", staffId: actor.id, text: comment });
    await writeAudit(tx, {
      actor,
      action: "approval.send_back",
      table: "approval_proposals",
      recordId: proposal.id,
      details: { applicationId, commentCharacters: comment.length },
      request,
    });
  });
}

/** The page's panel: the open proposal (if any) and the last one sent back, as the viewer sees them. */
export async function approvalPanel(applicationId: string, viewerId: string, db: DbOrTx = getDb()): Promise<ApprovalPanelView> {
  const proposals = await db
    .select({ p: approvalProposals })
    .from(approvalProposals)
    .where(and(eq(approvalProposals.applicationId, applicationId), inArray(approvalProposals.status, ["proposed", "sent_back"])))
    .orderBy(desc(approvalProposals.createdAt), desc(approvalProposals.id))
    .limit(2);
  const names = await peopleByIds(proposals.flatMap(({ p }) => [p.proposedBy, p.decidedBy]), db);
  // A proposal whose proposer's account is gone is not shown (as the join left it out).
  const rows = proposals.flatMap(({ p }) => {
    const proposerName = names.get(p.proposedBy)?.name;
    return proposerName === undefined ? [] : [{ p, proposerName, deciderName: p.decidedBy ? (names.get(p.decidedBy)?.name ?? null) : null }];
  });
  const view = (r: (typeof rows)[number]): ApprovalProposalView => ({
    id: r.p.id,
    status: r.p.status,
    approvedAmount: dollarsOf(r.p.approvedAmountCents),
    interestRate: percentOf(r.p.interestRateMilli),
    termMonths: r.p.termMonths,
    originationFeePercent: percentOf(r.p.originationFeeMilli),
    counterofferReasons: r.p.counterofferReasons,
    proposedByName: r.proposerName,
    proposedAt: r.p.createdAt.toISOString(),
    mine: r.p.proposedBy === viewerId,
    decidedByName: r.deciderName,
    decidedAt: r.p.decidedAt?.toISOString() ?? null,
    comment: r.p.comment,
  });
  const open = rows.find((r) => r.p.status === "proposed");
  const sentBack = rows.find((r) => r.p.status === "sent_back");
  return { open: open ? view(open) : null, lastSentBack: sentBack ? view(sentBack) : null, thresholdCents: getConfig().fourEyesThresholdCents };
}

export type ApprovalAnswer = ServiceAnswer<ApprovalActionData>;

/** The largest form the route reads: a 2,000-character comment of 4-byte UTF-8, form-encoded (×3), and the rest. */
export const MAX_APPROVAL_FORM_BYTES = 32 * 1024;

const refusal = stampedRefusal<ApprovalIntent>(APPROVAL_FAILED);

/**
 * POST /admin/applications/:id/approval after the route's guards (same origin, staff who work
 * applications): intent confirm | send-back, each through its schema (400), then the service.
 */
export async function approvalAction(request: Request, urlId: string | undefined, caller: Caller, db: Db = getDb()): Promise<ApprovalAnswer> {
  const read = await readActionForm(request, (message): ApprovalActionData => refusal(400, null, message).body, {
    limitBytes: MAX_APPROVAL_FORM_BYTES,
    unreadableAsEmpty: true,
  });
  if (!read.ok) return read.answer;
  const form = read.form;
  const schema = approvalSchemaForIntent(form.get("intent"));
  if (!schema) return refusal(400, null, APPROVAL_MESSAGES.intent);
  const intent = form.get("intent") as ApprovalIntent;
  if (!urlId || !UUID_PATTERN.test(urlId)) return refusal(404, intent, APPROVAL_MESSAGES.notFound);
  const applicationId = urlId.toLowerCase();
  const text = (key: string) => {
    const value = form.get(key);
    return typeof value === "string" ? value : undefined;
  };
  const parsed = schema.safeParse({ intent, proposalId: text("proposalId"), comment: text("comment") });
  if (!parsed.success) return refusal(400, intent, parsed.error.issues[0]?.message ?? APPROVAL_MESSAGES.intent, issuesToFieldErrors(parsed.error));
  const input = parsed.data;
  try {
    if (input.intent === "confirm") {
      await confirmProposal(applicationId, input.proposalId.toLowerCase(), caller, db);
      return { status: 200, body: { ok: true, intent, toast: APPROVAL_TOASTS.confirmed, at: Date.now() } };
    }
    await sendBackProposal(applicationId, input.proposalId.toLowerCase(), input.comment, caller, db);
    return { status: 200, body: { ok: true, intent, toast: APPROVAL_TOASTS.sentBack, at: Date.now() } };
  } catch (error) {
    // Terms the rules no longer allow (MAX_APR lowered since the proposal): not confirmed; Send Back remains.
    if (isAppError(error, "offer_terms")) return refusal(409, intent, error.message);
    if (error instanceof AppError) return actionRefusal(error, { title: APPROVAL_FAILED, stamped: true }, { intent });
    logFailure("admin", `approval ${intent} failed`, error, { admin: caller.actor.id, applicationId });
    return refusal(500, intent, "Something went wrong on our side. Please try again.");
  }
}
