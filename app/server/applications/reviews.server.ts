import { dollarsOf, percentOf, rateFromPercent, type RateMilli } from "~/domain/money";
import { and, eq, inArray, sql } from "drizzle-orm";
import { APPLICANT_SOURCE, type DenialSource } from "~/domain/adverse-action";
import { fromStatuses, transitionFor } from "~/domain/application-lifecycle";
import { aprCapProblem } from "~/domain/loan-offers";
import { getConfig } from "~/server/platform/config.server";
import { getDb, type Db, type DbOrTx, type Tx } from "~/server/platform/db/client.server";
import { approvalProposals, loanApplications } from "~/server/platform/db/schema.server";
import { personById } from "~/server/accounts/index.server";
import { counterofferFor, disclosureFor, insertOffer, OFFER_TERMS_MESSAGES, type OfferTermsInput } from "~/server/offers/index.server";
import { enqueueEmail } from "~/server/platform/mail/outbox.server";
import { applicationApprovedEmail, applicationDeniedEmail, counterofferEmail } from "~/server/platform/mail/templates.server";
import { lockOverdueItems, recordEvent } from "~/server/conversation/index.server";
import { todayUtc } from "~/domain/dates";
import { applicationIncompleteEmail } from "~/server/applications/incomplete-emails.server";
import { CLOSE_INCOMPLETE_NOT_YET } from "~/domain/validation/review";
import { APPROVAL_MESSAGES, PROPOSAL_CLOSED_BY } from "~/domain/validation/approval";
import { WITHDRAWN_BY_APPLICANT } from "~/domain/validation/application-withdraw";
import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";
import { AppError } from "~/server/platform/http/app-error.server";

/**
 * Review decisions. The lifecycle (~/domain/application-lifecycle) says which transition each decision
 * makes (pending or under review → approved, denied, incomplete; pending → under review); the status change is a conditional UPDATE
 * (… WHERE status IN (<the transition's from>)), so an application is decided only once, and of two admins deciding at once exactly one
 * wins and the other is told the application was already decided. The decision, the approved loan,
 * the applicant's e-mail and the audit row commit together.
 */

/** The decision can no longer be made: already decided, or the application changed meanwhile (409). */
export const reviewConflict = (message = "This application has already been decided.") => new AppError("review_conflict", 409, message);

/**
 * The conflict to report once a conditional UPDATE changed nothing: the applicant's withdrawal says
 * so (staff must not read it as a decision by a colleague); anything else is already decided.
 */
export async function conflictFor(db: DbOrTx, applicationId: string, otherwise: string = reviewConflict().message): Promise<AppError> {
  const [row] = await db.select({ status: loanApplications.status }).from(loanApplications).where(eq(loanApplications.id, applicationId)).limit(1);
  return reviewConflict(row?.status === "withdrawn" ? WITHDRAWN_BY_APPLICANT : otherwise);
}

/** No such application (the page answers 404, never saying more). */
export const reviewNotFound = () => new AppError("review_not_found", 404, "This application does not exist.");

export type ApprovalTerms = Omit<OfferTermsInput, "originationFeeMilli"> & {
  /** Defaults to ORIGINATION_FEE_PERCENT (the dialog always sends it). */
  originationFeeMilli?: RateMilli;
  /** Reg B reasons, required when the terms are a Counteroffer (less money, a higher rate, another term). */
  counterofferReasons?: string[];
};

async function applicantOf(db: DbOrTx, applicationId: string) {
  const [app] = await db.select().from(loanApplications).where(eq(loanApplications.id, applicationId)).limit(1);
  const owner = app && (await personById(app.userId, db));
  return app && owner ? { app, accountEmail: owner.email } : undefined;
}

/** The approval's terms checked and its figures worked out: what the transaction writes. */
export type PreparedApproval = {
  applicationId: string;
  found: NonNullable<Awaited<ReturnType<typeof applicantOf>>>;
  terms: OfferTermsInput & ApprovalTerms;
  figures: ReturnType<typeof disclosureFor>;
  counteroffer: boolean;
  reasons: string[];
  expiresAt: Date;
};

/**
 * Checks an approval's terms before anything is written (a four-eyes proposal is checked
 * exactly as an approval is, so a confirmation can never fail on terms): terms the disclosure cannot
 * describe, an APR above MAX_APR and a Counteroffer without a reason are OfferTermsError; no application is a ReviewConflict.
 */
export async function prepareApproval(applicationId: string, approval: ApprovalTerms, db: DbOrTx = getDb(), now: Date = new Date()): Promise<PreparedApproval> {
  const terms: OfferTermsInput & ApprovalTerms = { ...approval, originationFeeMilli: approval.originationFeeMilli ?? rateFromPercent(getConfig().originationFeePercent) };
  const found = await applicantOf(db, applicationId);
  if (!found) throw reviewConflict("This application does not exist.");
  const figures = disclosureFor(terms, todayUtc(now));
  const aboveCap = aprCapProblem(figures.aprPercent, { noteRateMilli: terms.interestRateMilli, originationFeeMilli: terms.originationFeeMilli }, getConfig().maxAprPercent);
  if (aboveCap) throw new AppError("offer_terms", 400, aboveCap.message, { field: aboveCap.field });
  const counteroffer = counterofferFor(found.app, terms);
  const reasons = terms.counterofferReasons ?? [];
  if (counteroffer && reasons.length === 0) throw new AppError("offer_terms", 400, OFFER_TERMS_MESSAGES.reasonsRequired, { field: "counterofferReasons" });
  const expiresAt = new Date(now.getTime() + getConfig().offerExpiryDays * 24 * 60 * 60 * 1000);
  return { applicationId, found, terms, figures, counteroffer, reasons, expiresAt };
}

/**
 * Approve: the lifecycle's 'approve' as one conditional UPDATE, and in the same transaction
 * the loan offer (terms, Origination Fee, the Truth in Lending figures, the expiry), the timeline
 * event, the applicant's e-mail and the audit row. No loan exists until the applicant signs the
 * agreement (server/offers/sign-agreement.server.ts). Terms the disclosure cannot describe, and a
 * Counteroffer without a reason, are refused before anything is written (OfferTermsError).
 */
export async function approveApplication(
  applicationId: string, approval: ApprovalTerms, caller: Caller, db: Db = getDb(), now: Date = new Date(),
): Promise<{ offerId: string }> {
  const prepared = await prepareApproval(applicationId, approval, db, now);
  return db.transaction((tx) => approveInTransaction(tx, prepared, caller));
}

/**
 * A decision's one conditional UPDATE: the lifecycle's transition for `event`, stamped with the
 * reviewer (and what else the decision stores), only from the statuses it leaves; a conflict
 * (conflictFor) when the application had already moved on.
 */
async function recordDecision(
  tx: Tx, applicationId: string, event: "approve" | "deny" | "close-incomplete", reviewerId: string, stored: Partial<typeof loanApplications.$inferInsert> = {},
): Promise<void> {
  const { to } = transitionFor(event);
  const decided = await tx
    .update(loanApplications)
    .set({ status: to, reviewedAt: sql`now()`, reviewedBy: reviewerId, ...stored, updatedAt: sql`now()` })
    .where(and(eq(loanApplications.id, applicationId), inArray(loanApplications.status, fromStatuses(event))))
    .returning({ id: loanApplications.id });
  if (decided.length === 0) throw await conflictFor(tx, applicationId);
}

/**
 * The body of Approve on a transaction the caller holds (a four-eyes confirmation runs it in
 * the transaction that marks the proposal confirmed, so the offer and the confirmation commit together).
 */
export async function approveInTransaction(tx: Tx, prepared: PreparedApproval, { actor, request }: Caller): Promise<{ offerId: string }> {
  const { applicationId, found, terms, figures, counteroffer, reasons, expiresAt } = prepared;
  await recordDecision(tx, applicationId, "approve", actor.id);
  // While a four-eyes proposal waits, only its confirmation approves (it is confirmed by now).
  const [waiting] = await tx
    .select({ id: approvalProposals.id })
    .from(approvalProposals)
    .where(and(eq(approvalProposals.applicationId, applicationId), eq(approvalProposals.status, "proposed")))
    .limit(1);
  if (waiting) throw reviewConflict(APPROVAL_MESSAGES.alreadyOpen);
  const offer = await insertOffer(tx, {
    applicationId,
    userId: found.app.userId,
    terms,
    figures,
    counteroffer,
    counterofferReasons: reasons,
    expiresAt,
    createdBy: actor.id,
  });
  // A counteroffer is announced as one, never as an approval of what was asked for.
  const about = { applicantName: `${found.app.firstName} ${found.app.lastName}`, loanType: found.app.loanType, applicationId, baseUrl: getConfig().publicUrl, expiresAt };
  await enqueueEmail(tx, {
    to: found.accountEmail,
    ...(counteroffer
      ? counterofferEmail({
          ...about,
          requested: { amount: dollarsOf(found.app.requestedAmountCents), ratePercent: percentOf(found.app.desiredRateMilli), termMonths: found.app.loanDuration },
          offered: { amount: dollarsOf(terms.approvedAmountCents), ratePercent: percentOf(terms.interestRateMilli), termMonths: terms.termMonths },
        })
      : applicationApprovedEmail({ ...about, approvedAmount: dollarsOf(terms.approvedAmountCents) })),
  });
  await recordEvent(tx, { applicationId, ownerId: found.app.userId, kind: "approved", actorId: actor.id, actorSide: "staff" });
  await recordEvent(tx, {
    applicationId,
    ownerId: found.app.userId,
    kind: "offer_made",
    actorId: actor.id,
    actorSide: "staff",
    summary: counteroffer ? "Counteroffer: the terms differ from your request." : null,
  });
  await writeAudit(tx, {
    actor,
    action: "application.approve",
    table: "loan_applications",
    recordId: applicationId,
    details: {
      // The audit row keeps its dollars and percents (its readers and exports expect them).
      approvedAmount: dollarsOf(terms.approvedAmountCents),
      interestRate: percentOf(terms.interestRateMilli),
      termMonths: terms.termMonths,
      originationFeePercent: percentOf(terms.originationFeeMilli),
      monthlyPaymentCents: figures.paymentCents,
      aprPercent: figures.aprPercent,
      counteroffer,
      counterofferReasons: counteroffer ? reasons : [],
      offerId: offer.id,
      expiresAt: expiresAt.toISOString(),
    },
    request,
  });
  return { offerId: offer.id };
}

/**
 * A decision other than approval ends the application's open four-eyes proposal in the
 * decision's transaction: it becomes sent_back with the reason as its comment, so no proposal stays
 * open on a decided application. No open proposal: nothing to do.
 */
export async function closeOpenProposal(tx: Tx, applicationId: string, { actor, request }: Caller, comment: string): Promise<void> {
  const closed = await tx
    .update(approvalProposals)
    .set({ status: "sent_back", decidedBy: actor.id, decidedAt: sql`now()`, comment })
    .where(and(eq(approvalProposals.applicationId, applicationId), eq(approvalProposals.status, "proposed")))
    .returning({ id: approvalProposals.id });
  for (const proposal of closed) {
    await writeAudit(tx, { actor, action: "approval.send_back", table: "approval_proposals", recordId: proposal.id, details: { applicationId, comment }, request });
  }
}

/**
 * Deny: the lifecycle's 'deny' as one conditional UPDATE that also stores the reasons and where the
 * information came from (`source`: the applicant's own, or a consumer report whose agency and score the
 * notice must disclose); the notice of action taken, the timeline event and the audit row commit with it.
 */
export async function denyApplication(
  applicationId: string, reasons: string[], caller: Caller, db: Db = getDb(), source: DenialSource = APPLICANT_SOURCE,
): Promise<void> {
  await db.transaction((tx) => denyInTransaction(tx, applicationId, reasons, caller, source));
}

/**
 * The body of Deny on a transaction the caller holds (Confirm Match denies the application in the
 * transaction that confirms the match). `reasons` may be empty: the notice then tells the applicant
 * they may ask for the statement of reasons (Regulation B allows either).
 */
export async function denyInTransaction(
  tx: Tx, applicationId: string, reasons: string[], caller: Caller, source: DenialSource = APPLICANT_SOURCE,
): Promise<void> {
  const { actor, request } = caller;
  const found = await applicantOf(tx, applicationId);
  if (!found) throw reviewConflict("This application does not exist.");
  await recordDecision(tx, applicationId, "deny", actor.id, { decisionReasons: reasons, denialSource: source });
  await closeOpenProposal(tx, applicationId, caller, PROPOSAL_CLOSED_BY.deny);
  await enqueueEmail(tx, {
    to: found.accountEmail,
    ...applicationDeniedEmail({
      applicantName: `${found.app.firstName} ${found.app.lastName}`,
      loanType: found.app.loanType,
      applicationId,
      reasons,
      source,
      baseUrl: getConfig().publicUrl,
    }),
  });
  await recordEvent(tx, { applicationId, ownerId: found.app.userId, kind: "denied", actorId: actor.id, actorSide: "staff" });
  await writeAudit(tx, { actor, action: "application.deny", table: "loan_applications", recordId: applicationId,
    // The source's kind and agency only: the score and its factors are on the application, not copied into the log.
    details: { reasons, source: source.kind, ...(source.kind === "consumer_report" ? { agency: source.agency.name } : {}) },
    request,
  });
}

/**
 * Start Review: the lifecycle's 'start-review' (pending → under_review) as one conditional
 * UPDATE, so of two admins pressing it at once one starts the review and the other is told it already
 * left pending. The timeline event (which also refreshes the applicant's open page) and the audit row
 * commit with it.
 */
export async function startReview(applicationId: string, { actor, request }: Caller, db: Db = getDb()): Promise<void> {
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
      if (!exists) throw reviewNotFound();
      throw reviewConflict(
        exists.status === "under_review"
          ? "This application is already under review."
          : exists.status === "withdrawn"
            ? WITHDRAWN_BY_APPLICANT
            : "This application has already been decided.",
      );
    }
    await recordEvent(tx, { applicationId, ownerId: row.userId, kind: "review_started", actorId: actor.id, actorSide: "staff" });
    await writeAudit(tx, { actor, action: "application.start_review", table: "loan_applications", recordId: applicationId, details: { from, to }, request });
  });
}

/** Close as Incomplete asked for before any open request's due date has passed (409). */
export const closeIncompleteNotYet = () => new AppError("close_incomplete_not_yet", 409, CLOSE_INCOMPLETE_NOT_YET);

/**
 * Close as Incomplete (Reg B 12 CFR 1002.9(c)): allowed once an item of a request is still
 * open (requested, or rejected and not answered again) after its due date. The lifecycle's
 * 'close-incomplete' is one conditional UPDATE; then the overdue open items are locked (FOR UPDATE
 * re-checks them, so an answer committed meanwhile takes its item out) and, if none is left, the
 * whole transaction rolls back. The timeline event, the audit row and the notice of action taken to
 * the applicant commit with the status, or nothing does.
 */
export async function closeAsIncomplete(applicationId: string, caller: Caller, db: Db = getDb(), now: Date = new Date()): Promise<void> {
  const { actor, request } = caller;
  const found = await applicantOf(db, applicationId);
  if (!found) throw reviewNotFound();
  await db.transaction(async (tx) => {
    // The application's row first (parent before children, the order every writer here takes).
    await recordDecision(tx, applicationId, "close-incomplete", actor.id);
    const overdue = await lockOverdueItems(tx, applicationId, todayUtc(now));
    // None: the whole transaction rolls back, the status change with it.
    if (overdue.length === 0) throw closeIncompleteNotYet();
    await closeOpenProposal(tx, applicationId, caller, PROPOSAL_CLOSED_BY.closeIncomplete);
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
      details: { overdueItems: overdue },
      request,
    });
  });
}
