import { createHash, randomBytes } from "node:crypto";
import { and, eq, lt, ne, sql } from "drizzle-orm";
import { HARDSHIP_REASON_LABELS } from "~/domain/collections-enums";
import { addDays, todayUtc } from "~/domain/dates";
import { planSentence, remainingRows, scheduleTotals, type PlanTotals } from "~/domain/hardship-plans";
import { MODIFICATION_KIND_LABELS, modificationLimitRefusal, parseScheduleChanges, scheduleChangeSchema, type ScheduleChange, type ScheduleChangeOffer } from "~/domain/loan-modifications";
import { projectSchedule, signedChange, type PaymentRow } from "~/domain/loan-schedule";
import { replayLedger, type LedgerState, type LoanTerms } from "~/domain/loan-servicing";
import { formatMoney } from "~/domain/money";
import { nameToType, typedNameMatches, typedSignatureAsGiven } from "~/domain/signer-names";
import { HARDSHIP_MESSAGES, PLAN_OFFER_DAYS, type PlanChoice, type RequestHelpInput, type SignPlanInput } from "~/domain/validation/hardship";
import { recordEvent } from "~/server/conversation/index.server";
import { agreementLender, currentConsent, holdCurrentConsent, lenderSigningIdentity, ownApplication } from "~/server/offers/index.server";
import { writeAudit, type AuditActor, type Caller } from "~/server/platform/audit/audit.server";
import { getDb, type Db, type DbOrTx } from "~/server/platform/db/client.server";
import { approvedLoans, hardshipRequests, loanModifications } from "~/server/platform/db/schema.server";
import { AppError } from "~/server/platform/http/app-error.server";
import { enqueueEmail } from "~/server/platform/mail/outbox.server";
import { getStorage } from "~/server/platform/storage/storage.server";
import { assertSafeKey, type DocumentStorage } from "~/server/platform/storage/storage-keys.server";
import { logFailure } from "~/server/platform/log/describe-error.server";
import { onOwnLockedLoan, ownLoanId, type LoanViewer } from "./borrower-loan.server";
import { hardshipRequestedEmail, planOfferedEmail, planSignedEmail } from "./hardship-emails.server";
import { hardshipRequestRecipients } from "./hardship-recipients.server";
import { ledgerRows, lockLoan, refreshLoan, termsOf, type LoanRow } from "./ledger.server";
import { loanOwner } from "./loan-owner.server";
import { loanMailSubject, loanReference } from "./loan-reference.server";
import { sealedModificationPdf, type ModificationDocument } from "./modification-pdf.server";

/**
 * Hardship plans (decision 0100): the borrower's Request Help with Payments, the plan staff offer
 * (Deferment, Payment Plan, Change Due Date), the borrower's signature or decline, staff's withdrawal
 * and closing a request without a plan.
 *
 * - A plan always starts from the first unpaid installment (the server takes it; the form never says).
 * - The offer stores what the borrower will see: the change (loan_modifications.offer), the totals of
 *   what is left to pay before and after, and the digest of the new schedule (totals_after.scheduleSha256).
 * - Signing is like the agreement's: E-SIGN consent in force, the typed name one of the borrower's, the
 *   PDF rendered, sealed and stored before the transaction; then, under the loan's row lock, the offer
 *   must still be open and unexpired and the schedule recomputed now (signedChange on the signing day)
 *   must be the one offered and the one the page showed, else the borrower is asked to get a new offer.
 *   One conditional UPDATE (status = 'offered') makes it signed, so a plan accepted twice applies once.
 *   The change is appended to approved_loans.schedule_changes and refreshLoan re-derives the next due
 *   date: from then on every ledger read services the new schedule.
 */

export const PLAN_FILES_PREFIX = "modifications";

export function planStorageKey(loanId: string): string {
  const key = `${PLAN_FILES_PREFIX}/${loanId}/modification_${randomBytes(16).toString("hex")}.pdf`;
  assertSafeKey(key);
  return key;
}

type StaffCaller = Caller<AuditActor>;
export type ModificationRow = typeof loanModifications.$inferSelect;
export type HardshipRequestRow = typeof hardshipRequests.$inferSelect;

/** What a plan does to the schedule: the change signed on `signedOn`, the rows before and after from its first installment, their totals and the new rows' digest. */
export type PlanPreview = { change: ScheduleChange; before: PaymentRow[]; after: PaymentRow[]; totals: PlanTotals; digest: string };

/** The digest of schedule rows: what the page showed, the offer stored and the signature covers. */
export function scheduleDigest(rows: readonly PaymentRow[]): string {
  const canonical = JSON.stringify(rows.map((r) => [r.number, r.dueDate, r.paymentCents, r.principalCents, r.interestCents, r.balanceCents]));
  return createHash("sha256").update(canonical).digest("hex");
}

/** The plan applied to the loan's schedule now in force (RangeError when it does not fit). */
export function previewPlan(terms: LoanTerms, offer: ScheduleChangeOffer, signedOn: string): PlanPreview {
  const change = signedChange(terms, offer, signedOn);
  const before = remainingRows(projectSchedule(terms, { refuse: false }), offer.fromInstallment);
  const after = remainingRows(projectSchedule({ ...terms, changes: [...(terms.changes ?? []), change] }, { refuse: false }), offer.fromInstallment);
  return { change, before, after, totals: { before: scheduleTotals(before), after: scheduleTotals(after) }, digest: scheduleDigest(after) };
}

/** A stored offer back as its type (the change without its signing day and later payment). */
export function parseOffer(value: unknown): ScheduleChangeOffer {
  const v = (value ?? {}) as Record<string, unknown>;
  const probe = { ...v, signedOn: "2000-01-01", ...(v.kind === "payment_plan" ? { laterPaymentCents: 0 } : {}) };
  const parsed = scheduleChangeSchema.safeParse(probe);
  if (!parsed.success) throw new Error(`loan_modifications.offer is unreadable: ${parsed.error.issues[0]?.message}`);
  const { signedOn: _signedOn, ...rest } = parsed.data;
  if (rest.kind === "payment_plan") {
    const { laterPaymentCents: _later, ...offer } = rest;
    return offer;
  }
  return rest;
}

type StoredTotals = PlanTotals["before"] & { scheduleSha256?: string };

/** The totals stored on a modification row (null when absent or unreadable). */
export function storedTotals(row: Pick<ModificationRow, "totalsBefore" | "totalsAfter">): { totals: PlanTotals; digest: string | null } | null {
  const before = row.totalsBefore as StoredTotals | null;
  const after = row.totalsAfter as StoredTotals | null;
  if (!before || !after || typeof before.paymentsCents !== "number" || typeof after.paymentsCents !== "number") return null;
  const strip = (t: StoredTotals) => ({ paymentsCents: t.paymentsCents, interestCents: t.interestCents, installments: t.installments, lastDueDate: t.lastDueDate });
  return { totals: { before: strip(before), after: strip(after) }, digest: typeof after.scheduleSha256 === "string" ? after.scheduleSha256 : null };
}

/** The loan's ledger on `today` inside the caller's transaction. */
async function stateOf(tx: DbOrTx, loan: LoanRow, today: string): Promise<{ terms: LoanTerms; state: LedgerState }> {
  const terms = termsOf(loan);
  const rows = await ledgerRows(loan.id, tx);
  return { terms, state: replayLedger(terms, rows.payments, rows.fees, today) };
}

/** Why the loan takes no hardship request or plan now, or null: funded and serviced, something left unpaid. */
export function hardshipRefusal(loan: Pick<LoanRow, "status">, state: Pick<LedgerState, "nextInstallment" | "status"> | null): string | null {
  if (loan.status !== "active" && loan.status !== "approved") return HARDSHIP_MESSAGES.notServiced;
  if (state && (state.status === "paid_in_full" || state.nextInstallment === null)) return HARDSHIP_MESSAGES.nothingUnpaid;
  return null;
}

/** Offers past their last day become 'expired' (their request back to open), so a new one can be made. */
async function expireOldOffers(tx: DbOrTx, loanId: string, today: string): Promise<void> {
  const expired = await tx
    .update(loanModifications)
    .set({ status: "expired", endedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(loanModifications.loanId, loanId), eq(loanModifications.status, "offered"), lt(loanModifications.expiresOn, today)))
    .returning({ id: loanModifications.id, requestId: loanModifications.hardshipRequestId });
  for (const row of expired) {
    if (row.requestId) await tx.update(hardshipRequests).set({ status: "open", updatedAt: sql`now()` }).where(and(eq(hardshipRequests.id, row.requestId), eq(hardshipRequests.status, "offered")));
    await writeAudit(tx, { actor: null, action: "plan.withdraw", table: "loan_modifications", recordId: row.id, details: { loanId, expired: true, on: today } });
  }
}

/** The loan's request in progress (open or offered), or null. */
export async function requestInProgress(tx: DbOrTx, loanId: string): Promise<HardshipRequestRow | null> {
  const [row] = await tx.select().from(hardshipRequests).where(and(eq(hardshipRequests.loanId, loanId), ne(hardshipRequests.status, "closed"))).limit(1);
  return row ?? null;
}

// ───────────────────────────── The borrower asks ─────────────────────────────

/**
 * Request Help with Payments: one request in progress per loan (the partial unique index; the loan's
 * lock orders two at once, and ON CONFLICT keeps the first if anything slips past). Audited, on the
 * loan's timeline (staff see it on the loan page) and e-mailed to staff (hardshipRequestRecipients).
 */
export async function requestHelp(loanId: unknown, input: RequestHelpInput, caller: Caller<LoanViewer>, db: Db = getDb(), today: string = todayUtc()): Promise<HardshipRequestRow> {
  return onOwnLockedLoan(loanId, caller.actor, db, HARDSHIP_MESSAGES.notFound, async (tx, loan) => {
    const { state } = await stateOf(tx, loan, today);
    const refusal = hardshipRefusal(loan, state);
    if (refusal) throw new AppError("servicing", 409, refusal);
    const [row] = await tx
      .insert(hardshipRequests)
      .values({ loanId: loan.id, userId: caller.actor.id, reason: input.reason, details: input.details ? input.details : null, canPayCents: input.canPay })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new AppError("servicing", 409, HARDSHIP_MESSAGES.alreadyAsked);
    await writeAudit(tx, {
      actor: caller.actor,
      action: "hardship.request",
      table: "hardship_requests",
      recordId: row.id,
      details: { loanId: loan.id, reason: row.reason, canPayCents: row.canPayCents, daysPastDue: state.daysPastDue },
      request: caller.request,
    });
    await recordEvent(tx, {
      applicationId: loan.applicationId,
      ownerId: loan.userId,
      kind: "hardship_requested",
      actorId: caller.actor.id,
      actorSide: "applicant",
      summary: `Asked for help with payments (${HARDSHIP_REASON_LABELS[row.reason]}); can pay ${formatMoney(row.canPayCents)} a month.`,
    });
    // Staff hear of it at once, with the request (its details stay in the portal).
    const owner = await loanOwner(tx, loan);
    if (owner) {
      const email = hardshipRequestedEmail({ ...loanMailSubject(loan, owner.loanType), reasonLabel: HARDSHIP_REASON_LABELS[row.reason], canPayCents: row.canPayCents, daysPastDue: state.daysPastDue });
      for (const to of await hardshipRequestRecipients(tx, loan)) await enqueueEmail(tx, { to, ...email });
    }
    return row;
  });
}

// ───────────────────────────── Staff offer, withdraw, close ─────────────────────────────

async function staffLockedLoan<T>(loanId: string, db: Db, act: (tx: Parameters<Parameters<Db["transaction"]>[0]>[0], loan: LoanRow) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    const loan = await lockLoan(tx, loanId);
    if (!loan) throw new AppError("servicing", 404, HARDSHIP_MESSAGES.notFound);
    return act(tx, loan);
  });
}

export type OfferResult = { modification: ModificationRow; preview: PlanPreview };

/**
 * Offer a plan (collections.work): the loan serviced with something unpaid, the yearly limits, the plan
 * fitting the schedule (a RangeError is the form's 400), a payment plan's reduced payment below the
 * regular one, no other offer open. Stored with its totals and digest, the request (if any) marked
 * offered, audited, on the timeline and e-mailed to the borrower with the link to review it.
 */
export async function offerPlan(loanId: string, plan: PlanChoice, note: string, caller: StaffCaller, db: Db = getDb(), today: string = todayUtc()): Promise<OfferResult> {
  return staffLockedLoan(loanId, db, async (tx, loan) => {
    const { terms, state } = await stateOf(tx, loan, today);
    const refusal = hardshipRefusal(loan, state);
    if (refusal) throw new AppError("servicing", 409, refusal);
    const limit = modificationLimitRefusal(terms.changes ?? [], plan.kind, today);
    if (limit) throw new AppError("servicing", 409, limit);
    if (plan.kind === "payment_plan" && plan.reducedPaymentCents >= loan.paymentCents) {
      throw new AppError("servicing", 400, `The reduced payment must be less than the regular payment of ${formatMoney(loan.paymentCents)}.`, { field: "reducedPayment" });
    }
    const offer = { ...plan, fromInstallment: state.nextInstallment!.number } as ScheduleChangeOffer;
    let preview: PlanPreview;
    try {
      preview = previewPlan(terms, offer, today);
    } catch (error) {
      if (error instanceof RangeError) throw new AppError("servicing", 400, `${HARDSHIP_MESSAGES.doesNotFit}: ${error.message}.`);
      throw error;
    }
    await expireOldOffers(tx, loan.id, today);
    const request = await requestInProgress(tx, loan.id);
    const [row] = await tx
      .insert(loanModifications)
      .values({
        loanId: loan.id,
        hardshipRequestId: request?.id ?? null,
        kind: offer.kind,
        offer,
        status: "offered",
        offeredBy: caller.actor.id,
        expiresOn: addDays(today, PLAN_OFFER_DAYS),
        note: note || null,
        totalsBefore: preview.totals.before,
        totalsAfter: { ...preview.totals.after, scheduleSha256: preview.digest },
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new AppError("servicing", 409, HARDSHIP_MESSAGES.offerOpen);
    if (request) await tx.update(hardshipRequests).set({ status: "offered", updatedAt: sql`now()` }).where(eq(hardshipRequests.id, request.id));
    const sentence = planSentence(preview.change);
    await writeAudit(tx, {
      actor: caller.actor,
      action: "plan.offer",
      table: "loan_modifications",
      recordId: row.id,
      details: { loanId: loan.id, offer, hardshipRequestId: request?.id ?? null, expiresOn: row.expiresOn, totals: preview.totals, scheduleSha256: preview.digest },
      request: caller.request,
    });
    await recordEvent(tx, { applicationId: loan.applicationId, ownerId: loan.userId, kind: "plan_offered", actorId: caller.actor.id, actorSide: "staff", summary: sentence });
    const owner = await loanOwner(tx, loan);
    if (owner) {
      await enqueueEmail(tx, {
        to: owner.email,
        ...planOfferedEmail({ ...loanMailSubject(loan, owner.loanType), kindLabel: MODIFICATION_KIND_LABELS[offer.kind], sentence, expiresOn: row.expiresOn, totals: preview.totals }),
      });
    }
    return { modification: row, preview };
  });
}

/** Withdraw the open offer (collections.work): it ends as withdrawn and its request is open again. */
export async function withdrawPlan(loanId: string, modificationId: string, note: string, caller: StaffCaller, db: Db = getDb()): Promise<ModificationRow> {
  return staffLockedLoan(loanId, db, async (tx, loan) => {
    const [row] = await tx
      .update(loanModifications)
      .set({ status: "withdrawn", endedAt: sql`now()`, endedBy: caller.actor.id, updatedAt: sql`now()`, ...(note ? { note } : {}) })
      .where(and(eq(loanModifications.id, modificationId), eq(loanModifications.loanId, loan.id), eq(loanModifications.status, "offered")))
      .returning();
    if (!row) throw new AppError("servicing", 409, HARDSHIP_MESSAGES.noOffer);
    if (row.hardshipRequestId) {
      await tx.update(hardshipRequests).set({ status: "open", updatedAt: sql`now()` }).where(and(eq(hardshipRequests.id, row.hardshipRequestId), eq(hardshipRequests.status, "offered")));
    }
    await writeAudit(tx, { actor: caller.actor, action: "plan.withdraw", table: "loan_modifications", recordId: row.id, details: { loanId: loan.id, note: note || null }, request: caller.request });
    await recordEvent(tx, {
      applicationId: loan.applicationId,
      ownerId: loan.userId,
      kind: "plan_withdrawn",
      actorId: caller.actor.id,
      actorSide: "staff",
      summary: `The ${MODIFICATION_KIND_LABELS[row.kind].toLowerCase()} plan offered was withdrawn.`,
    });
    return row;
  });
}

/** Close the request in progress without a plan (collections.work), with the reason the borrower reads; not while a plan is offered on it. */
export async function closeRequest(loanId: string, requestId: string, note: string, caller: StaffCaller, db: Db = getDb()): Promise<HardshipRequestRow> {
  return staffLockedLoan(loanId, db, async (tx, loan) => {
    const [offered] = await tx
      .select({ id: loanModifications.id })
      .from(loanModifications)
      .where(and(eq(loanModifications.loanId, loan.id), eq(loanModifications.hardshipRequestId, requestId), eq(loanModifications.status, "offered")))
      .limit(1);
    if (offered) throw new AppError("servicing", 409, "A plan is offered on this request: withdraw it first.");
    const [row] = await tx
      .update(hardshipRequests)
      .set({ status: "closed", closedAt: sql`now()`, closedBy: caller.actor.id, closeNote: note, updatedAt: sql`now()` })
      .where(and(eq(hardshipRequests.id, requestId), eq(hardshipRequests.loanId, loan.id), ne(hardshipRequests.status, "closed")))
      .returning();
    if (!row) throw new AppError("servicing", 409, HARDSHIP_MESSAGES.noRequestOpen);
    await writeAudit(tx, { actor: caller.actor, action: "hardship.close", table: "hardship_requests", recordId: row.id, details: { loanId: loan.id, note }, request: caller.request });
    return row;
  });
}

// ───────────────────────────── The borrower declines or signs ─────────────────────────────

/** Why a modification cannot be signed or declined now (its status, its last day), or null. */
export function planRefusal(row: Pick<ModificationRow, "status" | "expiresOn"> | null, today: string): AppError | null {
  if (!row) return new AppError("servicing", 409, HARDSHIP_MESSAGES.noOffer);
  switch (row.status) {
    case "signed":
      return new AppError("servicing", 409, HARDSHIP_MESSAGES.signed);
    case "declined":
      return new AppError("servicing", 409, HARDSHIP_MESSAGES.declined);
    case "withdrawn":
      return new AppError("servicing", 410, HARDSHIP_MESSAGES.withdrawn);
    case "expired":
      return new AppError("servicing", 410, HARDSHIP_MESSAGES.expired);
    default:
      return row.expiresOn < today ? new AppError("servicing", 410, HARDSHIP_MESSAGES.expired) : null;
  }
}

async function modificationOf(db: DbOrTx, loanId: string, modificationId: string): Promise<ModificationRow | null> {
  const [row] = await db.select().from(loanModifications).where(and(eq(loanModifications.id, modificationId), eq(loanModifications.loanId, loanId))).limit(1);
  return row ?? null;
}

/** Decline the plan offered: it ends as declined; the request stays open for staff (who may close it). */
export async function declinePlan(loanId: unknown, modificationId: string, caller: Caller<LoanViewer>, db: Db = getDb(), today: string = todayUtc()): Promise<ModificationRow> {
  return onOwnLockedLoan(loanId, caller.actor, db, HARDSHIP_MESSAGES.notFound, async (tx, loan) => {
    const current = await modificationOf(tx, loan.id, modificationId);
    const refusal = planRefusal(current, today);
    if (refusal) throw refusal;
    const [row] = await tx
      .update(loanModifications)
      .set({ status: "declined", endedAt: sql`now()`, endedBy: caller.actor.id, updatedAt: sql`now()` })
      .where(and(eq(loanModifications.id, modificationId), eq(loanModifications.status, "offered")))
      .returning();
    if (!row) throw new AppError("servicing", 409, HARDSHIP_MESSAGES.offerGone);
    if (row.hardshipRequestId) await tx.update(hardshipRequests).set({ status: "open", updatedAt: sql`now()` }).where(and(eq(hardshipRequests.id, row.hardshipRequestId), eq(hardshipRequests.status, "offered")));
    await writeAudit(tx, { actor: caller.actor, action: "plan.decline", table: "loan_modifications", recordId: row.id, details: { loanId: loan.id }, request: caller.request });
    await recordEvent(tx, {
      applicationId: loan.applicationId,
      ownerId: loan.userId,
      kind: "plan_declined",
      actorId: caller.actor.id,
      actorSide: "applicant",
      summary: `Declined the ${MODIFICATION_KIND_LABELS[row.kind].toLowerCase()} plan offered.`,
    });
    return row;
  });
}

/** The plan as it would be signed today, or the refusal: the loan's state, the first unpaid installment, the fit and the offer's stored digest. */
function signablePreview(loan: LoanRow, terms: LoanTerms, state: LedgerState, row: ModificationRow, today: string): PlanPreview {
  const refusal = hardshipRefusal(loan, state);
  if (refusal) throw new AppError("servicing", 409, refusal);
  const offer = parseOffer(row.offer);
  // A payment since the offer moved the first unpaid installment: the plan offered no longer starts there.
  if (state.nextInstallment!.number !== offer.fromInstallment) throw new AppError("servicing", 409, HARDSHIP_MESSAGES.scheduleChanged);
  const limit = modificationLimitRefusal(terms.changes ?? [], offer.kind, today);
  if (limit) throw new AppError("servicing", 409, limit);
  let preview: PlanPreview;
  try {
    preview = previewPlan(terms, offer, today);
  } catch (error) {
    if (error instanceof RangeError) throw new AppError("servicing", 409, HARDSHIP_MESSAGES.scheduleChanged);
    throw error;
  }
  const stored = storedTotals(row);
  if (!stored?.digest || stored.digest !== preview.digest) throw new AppError("servicing", 409, HARDSHIP_MESSAGES.scheduleChanged);
  return preview;
}

export type SignPlanResult = { modificationId: string; sha256: string; storageKey: string; change: ScheduleChange; nextDue: { dueDate: string; amountCents: number } | null };

/**
 * Sign the plan offered (the owner, with E-SIGN consent in force and their typed name). Refusals: 404
 * not their loan or no such offer; 409 no consent, signed/declined, the schedule changed since it was
 * offered or since the page was opened, the loan's state; 410 withdrawn or expired; 400 a typed name
 * that is not theirs. The PDF is stored before the transaction and removed again if it fails.
 */
export async function signPlan(
  loanId: unknown, input: Pick<SignPlanInput, "modificationId" | "scheduleDigest" | "typedName">, caller: Caller<LoanViewer>,
  options: { db?: Db; storage?: DocumentStorage; now?: Date } = {},
): Promise<SignPlanResult> {
  const { actor: viewer, request } = caller;
  const db = options.db ?? getDb();
  const storage = options.storage ?? getStorage();
  const now = options.now ?? new Date();
  const today = todayUtc(now);

  const id = await ownLoanId(loanId, viewer, db);
  if (!id) throw new AppError("servicing", 404, HARDSHIP_MESSAGES.notFound);
  const [loan] = await db.select().from(approvedLoans).where(eq(approvedLoans.id, id)).limit(1);
  if (!loan) throw new AppError("servicing", 404, HARDSHIP_MESSAGES.notFound);
  const row = await modificationOf(db, loan.id, input.modificationId);
  if (!row) throw new AppError("servicing", 404, HARDSHIP_MESSAGES.noOffer);
  const refusal = planRefusal(row, today);
  if (refusal) throw refusal;
  const app = await ownApplication(loan.applicationId, viewer, db);
  if (!app) throw new AppError("servicing", 404, HARDSHIP_MESSAGES.notFound);
  const consent = await currentConsent(app.id, viewer.id, db);
  if (!consent) throw new AppError("servicing", 409, HARDSHIP_MESSAGES.noConsent);
  if (!typedNameMatches(input.typedName, app)) throw new AppError("servicing", 400, `${HARDSHIP_MESSAGES.typedMismatch}: ${nameToType(app)}.`, { field: "typedName" });

  const { terms, state } = await stateOf(db, loan, today);
  const preview = signablePreview(loan, terms, state, row, today);
  // The page's schedule must be the one signed: a page opened before a change shows another one.
  if (input.scheduleDigest !== preview.digest) throw new AppError("servicing", 409, HARDSHIP_MESSAGES.pageStale);

  // Render, seal and store first: nothing is committed for a document that does not exist.
  const typedName = typedSignatureAsGiven(input.typedName);
  const userAgent = request.userAgent?.slice(0, 500) ?? "";
  const sentence = planSentence(preview.change);
  const document: ModificationDocument = {
    lender: agreementLender(),
    borrower: { name: loan.obligorName, address: { line1: app.addressLine1, ...(app.addressLine2 ? { line2: app.addressLine2 } : {}), city: app.city, state: app.state, postalCode: app.zipCode } },
    loanReference: loanReference(loan),
    issuedOn: today,
    kindLabel: MODIFICATION_KIND_LABELS[row.kind],
    sentence,
    before: preview.before,
    after: preview.after,
    totals: preview.totals,
    signature: { typedName, signerEmail: viewer.email, signedAt: now.toISOString(), ipAddress: request.ip ?? "", userAgent, consentVersion: consent.version, consentedAt: consent.consentedAt.toISOString() },
  };
  const seal = lenderSigningIdentity();
  const bytes = await sealedModificationPdf(document, seal, now);
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const storageKey = planStorageKey(loan.id);
  await storage.put(storageKey, bytes, "application/pdf");

  try {
    return await db.transaction(async (tx) => {
      const locked = await lockLoan(tx, loan.id);
      if (!locked || locked.userId !== viewer.id) throw new AppError("servicing", 404, HARDSHIP_MESSAGES.notFound);
      if (!(await holdCurrentConsent(tx, consent.id))) throw new AppError("servicing", 409, HARDSHIP_MESSAGES.noConsent);
      const current = await modificationOf(tx, loan.id, row.id);
      const again = planRefusal(current, today);
      if (again) throw again;
      // Under the lock, the schedule is recomputed once more: a payment or another change committed
      // since the PDF was rendered would make the signed document say something else.
      const now2 = await stateOf(tx, locked, today);
      const recheck = signablePreview(locked, now2.terms, now2.state, current!, today);
      if (recheck.digest !== preview.digest) throw new AppError("servicing", 409, HARDSHIP_MESSAGES.scheduleChanged);

      const [signed] = await tx
        .update(loanModifications)
        .set({
          status: "signed",
          signedChange: preview.change,
          signedAt: now,
          signerName: typedName,
          signatureKind: "typed",
          ipAddress: request.ip ?? null,
          userAgent: userAgent || null,
          storageKey,
          sha256,
          updatedAt: sql`now()`,
        })
        .where(and(eq(loanModifications.id, row.id), eq(loanModifications.status, "offered")))
        .returning({ id: loanModifications.id });
      if (!signed) throw new AppError("servicing", 409, HARDSHIP_MESSAGES.signed);

      const changes = [...parseScheduleChanges(locked.scheduleChanges), preview.change];
      const [updated] = await tx.update(approvedLoans).set({ scheduleChanges: changes, updatedAt: sql`now()` }).where(eq(approvedLoans.id, locked.id)).returning();
      const after = await refreshLoan(tx, updated!, today);
      if (row.hardshipRequestId) {
        await tx
          .update(hardshipRequests)
          .set({ status: "closed", closedAt: sql`now()`, closeNote: `Plan signed: ${MODIFICATION_KIND_LABELS[row.kind]}.`, updatedAt: sql`now()` })
          .where(and(eq(hardshipRequests.id, row.hardshipRequestId), ne(hardshipRequests.status, "closed")));
      }
      await writeAudit(tx, {
        actor: viewer,
        action: "plan.sign",
        table: "loan_modifications",
        recordId: row.id,
        details: { loanId: loan.id, change: preview.change, sha256, byteSize: bytes.length, storageKey, signingCertificateSha256: seal.certificateSha256, consentId: consent.id, consentVersion: consent.version, scheduleSha256: preview.digest },
        request,
      });
      await recordEvent(tx, { applicationId: loan.applicationId, ownerId: loan.userId, kind: "plan_signed", actorId: viewer.id, actorSide: "applicant", summary: sentence });
      const nextDue = after.nextInstallment ? { dueDate: after.nextInstallment.dueDate, amountCents: after.nextInstallment.amountDueCents } : null;
      const owner = await loanOwner(tx, loan);
      if (owner) {
        await enqueueEmail(tx, {
          to: owner.email,
          ...planSignedEmail({ ...loanMailSubject(loan, owner.loanType), kindLabel: MODIFICATION_KIND_LABELS[row.kind], sentence, signedAt: `${now.toISOString().slice(0, 16).replace("T", " ")} UTC`, totals: preview.totals, nextDue }),
        });
      }
      return { modificationId: row.id, sha256, storageKey, change: preview.change, nextDue };
    });
  } catch (error) {
    await storage.delete(storageKey).catch((cleanup) => logFailure("borrower", "removing an unsigned modification file failed", cleanup, { storageKey }));
    throw error;
  }
}
