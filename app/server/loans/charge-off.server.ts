import { and, desc, eq, gt, sql } from "drizzle-orm";
import { errorToast, type Toast } from "~/domain/action-result";
import { todayUtc } from "~/domain/dates";
import { formatDay } from "~/domain/formats";
import { replayLedger, type LedgerState } from "~/domain/loan-servicing";
import { formatMoney } from "~/domain/money";
import {
  CHARGE_OFF_FAILED,
  CHARGE_OFF_INTENTS,
  CHARGE_OFF_MESSAGES,
  chargeOffIntentSchema,
  type ChargeOffActionData,
  type ChargeOffIntent,
  type SettleForm,
} from "~/domain/validation/charge-off";
import { issuesToFieldErrors } from "~/domain/validation/field-errors";
import type { ChargeOffPanelData } from "~/domain/views/charge-off";
import { peopleByIds } from "~/server/accounts/index.server";
import { recordEvent } from "~/server/conversation/index.server";
import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";
import { getConfig } from "~/server/platform/config.server";
import { getDb, type Db, type DbOrTx } from "~/server/platform/db/client.server";
import { approvedLoans, chargeOffRequests, loanPayments } from "~/server/platform/db/schema.server";
import { formTexts, readActionForm, type ServiceAnswer } from "~/server/platform/http/action-answer.server";
import { AppError } from "~/server/platform/http/app-error.server";
import { logFailure } from "~/server/platform/log/describe-error.server";
import { ledgerRows, lockLoan, refreshLoan, termsOf, type LoanRow } from "./ledger.server";
import { stopLoanDebits } from "./loan-debit-stops.server";
import { closeOpenPromises } from "./collections.server";
import { closeHardshipOnLoanClosed } from "./hardship-close.server";

/**
 * Charge-off, recovery and settlement (docs/decisions/0102-charge-off-recovery-settlement.md).
 * - Charge Off (admin, with a reason): an active loan past due. What it owes today (principal, interest
 *   and fees) moves to charged off; below the four-eyes threshold at once, at or above it as a request
 *   another admin approves (the proposer cannot). Under the loan's row lock, in one transaction: the
 *   status, the day, the amount, who and why; autopay stopped and unsent debits cancelled; the loan
 *   refreshed; audited; on the borrower's timeline. The replay accrues nothing from that day on and the
 *   servicing job serves active loans only, so no interest, fee or notice follows.
 * - Recovery: payments.server.ts marks a payment posting on a charged-off loan (under the same lock).
 * - Settlement (admin): the agreed amount is posted as a payment on its day, and the loan is settled
 *   that day: the replay forgives what is left after it (the 1099-C amount, stored as forgiven_cents).
 */

const refuse = (status: number, message: string) => new AppError("charge_off", status, message);

/** What the loan owes on `today` (principal, interest, fees), replayed inside the transaction. */
async function replayed(tx: DbOrTx, loan: LoanRow, today: string, change: Partial<Pick<LoanRow, "chargedOffOn" | "settledOn">> = {}): Promise<LedgerState> {
  const rows = await ledgerRows(loan.id, tx);
  return replayLedger({ ...termsOf(loan), ...change }, rows.payments, rows.fees, today);
}

const owed = (state: LedgerState) => state.principalCents + state.interestAccruedCents + state.feesDueCents;

/** Active and past due (the loan locked or read): what Charge Off requires. */
function checkChargeable(loan: LoanRow, state: LedgerState): void {
  if (loan.status === "charged_off") throw refuse(409, CHARGE_OFF_MESSAGES.alreadyChargedOff);
  if (loan.status !== "active" || state.daysPastDue < 1 || owed(state) <= 0) throw refuse(409, CHARGE_OFF_MESSAGES.notChargeable);
}

/** The charge-off itself (loan locked, checked): the columns, the debits stopped, the refresh, audit and timeline. */
async function applyChargeOff(tx: DbOrTx, loan: LoanRow, reason: string, caller: Caller, today: string, requestId: string | null): Promise<{ amountCents: number }> {
  const state = await replayed(tx, loan, today, { chargedOffOn: today });
  const amountCents = state.chargedOff!.totalCents;
  const [updated] = await tx
    .update(approvedLoans)
    .set({ status: "charged_off", chargedOffOn: today, chargedOffCents: amountCents, chargedOffBy: caller.actor.id, chargeOffReason: reason, updatedAt: sql`now()` })
    .where(and(eq(approvedLoans.id, loan.id), eq(approvedLoans.status, "active")))
    .returning();
  if (!updated) throw refuse(409, CHARGE_OFF_MESSAGES.notChargeable);
  const stops = await stopLoanDebits(tx, updated, { reason: "Your loan was charged off before this debit was sent.", auditReason: "charged_off" }, caller);
  await refreshLoan(tx, updated, today);
  const c = state.chargedOff!;
  await writeAudit(tx, {
    actor: caller.actor,
    action: "loan.charge_off",
    table: "approved_loans",
    recordId: loan.id,
    details: { amountCents, principalCents: c.principalCents, interestCents: c.interestCents, feesCents: c.feesCents, daysPastDue: state.daysPastDue, reason, requestId, ...stops },
    request: caller.request,
  });
  await recordEvent(tx, {
    applicationId: loan.applicationId,
    ownerId: loan.userId,
    kind: "loan_charged_off",
    actorId: caller.actor.id,
    actorSide: "staff",
    summary: `The loan was charged off with ${formatMoney(amountCents)} owed. Payments are still accepted and reduce what is owed.`,
  });
  return { amountCents };
}

export type ChargeOffResult = { status: "charged_off" | "awaiting_approval"; amountCents: number };

/**
 * Charge Off: at once below the four-eyes threshold, else a request for another admin (one pending per
 * loan: the partial unique index decides between two admins at once).
 */
export async function chargeOffLoan(loanId: string, reason: string, caller: Caller, db: Db = getDb(), today: string = todayUtc()): Promise<ChargeOffResult> {
  return db.transaction(async (tx) => {
    const loan = await lockLoan(tx, loanId);
    if (!loan) throw refuse(404, CHARGE_OFF_MESSAGES.loanNotFound);
    const state = await replayed(tx, loan, today);
    checkChargeable(loan, state);
    const [pending] = await tx.select({ id: chargeOffRequests.id }).from(chargeOffRequests).where(and(eq(chargeOffRequests.loanId, loanId), eq(chargeOffRequests.status, "pending"))).limit(1);
    if (pending) throw refuse(409, CHARGE_OFF_MESSAGES.pendingRequest);
    const amountCents = owed(state);
    if (amountCents >= getConfig().fourEyesThresholdCents) {
      const [request] = await tx.insert(chargeOffRequests).values({ loanId, requestedBy: caller.actor.id, reason, amountCents }).returning({ id: chargeOffRequests.id });
      await writeAudit(tx, { actor: caller.actor, action: "loan.charge_off_propose", table: "charge_off_requests", recordId: request!.id, details: { loanId, amountCents, daysPastDue: state.daysPastDue, reason }, request: caller.request });
      return { status: "awaiting_approval", amountCents };
    }
    return { status: "charged_off", ...(await applyChargeOff(tx, loan, reason, caller, today, null)) };
  });
}

async function pendingRequest(tx: DbOrTx, loanId: string, requestId: string) {
  const [request] = await tx.select().from(chargeOffRequests).where(and(eq(chargeOffRequests.id, requestId), eq(chargeOffRequests.loanId, loanId))).limit(1);
  if (!request) throw refuse(404, CHARGE_OFF_MESSAGES.requestId);
  if (request.status !== "pending") throw refuse(409, CHARGE_OFF_MESSAGES.notPending);
  return request;
}

/** Approve Charge-off: another admin than the proposer; the amount is what the loan owes at approval. */
export async function approveChargeOff(loanId: string, requestId: string, caller: Caller, db: Db = getDb(), today: string = todayUtc()): Promise<ChargeOffResult> {
  return db.transaction(async (tx) => {
    const loan = await lockLoan(tx, loanId);
    if (!loan) throw refuse(404, CHARGE_OFF_MESSAGES.loanNotFound);
    const request = await pendingRequest(tx, loanId, requestId);
    if (request.requestedBy === caller.actor.id) throw refuse(403, CHARGE_OFF_MESSAGES.selfApproval);
    checkChargeable(loan, await replayed(tx, loan, today));
    const [decided] = await tx
      .update(chargeOffRequests)
      .set({ status: "approved", decidedBy: caller.actor.id, decidedAt: sql`now()` })
      .where(and(eq(chargeOffRequests.id, requestId), eq(chargeOffRequests.status, "pending"), sql`${chargeOffRequests.requestedBy} is distinct from ${caller.actor.id}`))
      .returning({ id: chargeOffRequests.id });
    if (!decided) throw refuse(409, CHARGE_OFF_MESSAGES.notPending);
    return { status: "charged_off", ...(await applyChargeOff(tx, loan, request.reason, caller, today, requestId)) };
  });
}

/** Reject Charge-off: any admin (the proposer withdrawing it, or a second admin refusing it). */
export async function rejectChargeOff(loanId: string, requestId: string, caller: Caller, db: Db = getDb()): Promise<void> {
  await db.transaction(async (tx) => {
    const loan = await lockLoan(tx, loanId);
    if (!loan) throw refuse(404, CHARGE_OFF_MESSAGES.loanNotFound);
    const request = await pendingRequest(tx, loanId, requestId);
    const [decided] = await tx
      .update(chargeOffRequests)
      .set({ status: "rejected", decidedBy: caller.actor.id, decidedAt: sql`now()` })
      .where(and(eq(chargeOffRequests.id, requestId), eq(chargeOffRequests.status, "pending")))
      .returning({ id: chargeOffRequests.id });
    if (!decided) throw refuse(409, CHARGE_OFF_MESSAGES.notPending);
    await writeAudit(tx, { actor: caller.actor, action: "loan.charge_off_reject", table: "charge_off_requests", recordId: requestId, details: { loanId, amountCents: request.amountCents, proposedBy: request.requestedBy }, request: caller.request });
  });
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } };
  return e?.code === "23505" || e?.cause?.code === "23505";
}

export type SettlementResult = { paymentId: string; forgivenCents: number; settledOn: string };

/**
 * Record Settlement: the agreed amount received is posted (a recovery on a charged-off loan), and the
 * loan is settled on its received day: what is left after that day's payments is forgiven. Refused when
 * the amount pays everything (that is a payoff), when a payment already posted is dated later, and on a
 * loan settled already (a second post of the form finds it settled and changes nothing).
 */
export async function settleLoan(loanId: string, input: Omit<SettleForm, "intent">, caller: Caller, db: Db = getDb(), today: string = todayUtc()): Promise<SettlementResult> {
  try {
    return await db.transaction(async (tx) => {
      const loan = await lockLoan(tx, loanId);
      if (!loan) throw refuse(404, CHARGE_OFF_MESSAGES.loanNotFound);
      if (loan.status === "settled") throw refuse(409, CHARGE_OFF_MESSAGES.alreadySettled);
      if (loan.status !== "active" && loan.status !== "charged_off") throw refuse(409, CHARGE_OFF_MESSAGES.notSettleable);
      if (input.receivedOn < loan.startDate) throw refuse(400, "The received date cannot be before the loan started.");
      if (loan.chargedOffOn && input.receivedOn < loan.chargedOffOn) throw refuse(400, CHARGE_OFF_MESSAGES.settlementBeforeChargeOff);
      const [later] = await tx
        .select({ id: loanPayments.id })
        .from(loanPayments)
        .where(and(eq(loanPayments.loanId, loanId), eq(loanPayments.status, "posted"), gt(loanPayments.receivedOn, input.receivedOn)))
        .limit(1);
      if (later) throw refuse(400, CHARGE_OFF_MESSAGES.settlementBeforeLastPayment);
      const [payment] = await tx
        .insert(loanPayments)
        .values({
          loanId,
          userId: loan.userId,
          amountCents: input.amount,
          status: "posted",
          method: input.method,
          source: "staff",
          reference: input.reference,
          receivedOn: input.receivedOn,
          postedAt: sql`now()`,
          postedBy: caller.actor.id,
          recovery: loan.status === "charged_off",
        })
        .returning({ id: loanPayments.id });
      const state = await replayed(tx, loan, today, { settledOn: input.receivedOn });
      if (state.forgivenCents <= 0) throw refuse(409, CHARGE_OFF_MESSAGES.settlementNotLess);
      const [updated] = await tx
        .update(approvedLoans)
        .set({ status: "settled", settledOn: input.receivedOn, forgivenCents: state.forgivenCents, settledBy: caller.actor.id, updatedAt: sql`now()` })
        .where(and(eq(approvedLoans.id, loanId), sql`${approvedLoans.status} in ('active', 'charged_off')`))
        .returning();
      if (!updated) throw refuse(409, CHARGE_OFF_MESSAGES.alreadySettled);
      // A charge-off awaiting approval has nothing left to decide.
      await tx
        .update(chargeOffRequests)
        .set({ status: "rejected", decidedBy: caller.actor.id, decidedAt: sql`now()` })
        .where(and(eq(chargeOffRequests.loanId, loanId), eq(chargeOffRequests.status, "pending")));
      const stops = await stopLoanDebits(tx, updated, { reason: "Your loan was settled before this debit was sent.", auditReason: "settled" }, caller);
      await closeOpenPromises(tx, loanId, "cancelled", caller);
      await closeHardshipOnLoanClosed(tx, loanId, "settled", caller);
      await refreshLoan(tx, updated, today);
      await writeAudit(tx, {
        actor: caller.actor,
        action: "loan.settle",
        table: "approved_loans",
        recordId: loanId,
        details: { paymentId: payment!.id, amountCents: input.amount, receivedOn: input.receivedOn, method: input.method, reference: input.reference, forgivenCents: state.forgivenCents, recovery: loan.status === "charged_off", ...stops },
        request: caller.request,
      });
      await recordEvent(tx, {
        applicationId: loan.applicationId,
        ownerId: loan.userId,
        kind: "loan_settled",
        actorId: caller.actor.id,
        actorSide: "staff",
        summary: `The loan was settled on ${formatDay(input.receivedOn)} for ${formatMoney(input.amount)}; the remaining ${formatMoney(state.forgivenCents)} was forgiven. Nothing more is owed.`,
      });
      return { paymentId: payment!.id, forgivenCents: state.forgivenCents, settledOn: input.receivedOn };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw refuse(409, "This reference has already been posted on this loan.");
    throw error;
  }
}

/** The Charge-off panel's data for the staff loan page (the ledger already replayed by the page). */
export async function chargeOffPanel(loan: LoanRow, state: LedgerState, viewerId: string, db: Db = getDb()): Promise<ChargeOffPanelData> {
  const [pending] = await db
    .select()
    .from(chargeOffRequests)
    .where(and(eq(chargeOffRequests.loanId, loan.id), eq(chargeOffRequests.status, "pending")))
    .orderBy(desc(chargeOffRequests.createdAt))
    .limit(1);
  const people = await peopleByIds([pending?.requestedBy, loan.chargedOffBy, loan.settledBy], db);
  const nameOf = (id: string | null | undefined) => (id ? (people.get(id)?.name ?? "A former staff member") : "A former staff member");
  const c = state.chargedOff;
  return {
    eligible: loan.status === "active" && state.daysPastDue >= 1 && owed(state) > 0,
    daysPastDue: state.daysPastDue,
    chargeOffDays: getConfig().chargeOffDays,
    owedCents: owed(state),
    fourEyesThresholdCents: getConfig().fourEyesThresholdCents,
    pending: pending
      ? { id: pending.id, amountCents: pending.amountCents, reason: pending.reason, requestedBy: nameOf(pending.requestedBy), requestedByViewer: pending.requestedBy === viewerId, createdAt: pending.createdAt.toISOString() }
      : null,
    chargedOff:
      loan.chargedOffOn && loan.chargedOffCents !== null
        ? {
            on: loan.chargedOffOn,
            amountCents: loan.chargedOffCents,
            reason: loan.chargeOffReason ?? "",
            by: nameOf(loan.chargedOffBy),
            principalCents: c?.principalCents ?? 0,
            interestCents: c?.interestCents ?? 0,
            feesCents: c?.feesCents ?? 0,
          }
        : null,
    recoveredCents: state.recoveredCents,
    settled: loan.settledOn && loan.forgivenCents !== null ? { on: loan.settledOn, forgivenCents: loan.forgivenCents, by: nameOf(loan.settledBy) } : null,
    settleable: loan.status === "active" || loan.status === "charged_off",
  };
}

// ---------------------------------------------------------------------------------------------
// POST /admin/loans/:id/charge-off
// ---------------------------------------------------------------------------------------------

export type ChargeOffAnswer = ServiceAnswer<ChargeOffActionData>;

function answer(status: number, intent: ChargeOffIntent | null, toast: Toast, fieldErrors?: Record<string, string[]>): ChargeOffAnswer {
  return { status, body: { ok: status < 300, intent, toast, at: Date.now(), ...(fieldErrors ? { fieldErrors } : {}) } };
}

/** The largest form: a 1,000-character reason in 4-byte UTF-8, form-encoded, and the rest. */
const MAX_CHARGE_OFF_FORM_BYTES = 16 * 1024;

/**
 * POST /admin/loans/:id/charge-off after the route's guard (servicing.manage): the size-limited form
 * (413), the intent's schema (400 naming the field), then the service; its refusals (404, 403 the
 * proposer approving, 409 a loan in the wrong state) become error toasts.
 */
export async function chargeOffAction(request: Request, loanId: string | null, caller: Caller, db: Db = getDb(), today: string = todayUtc()): Promise<ChargeOffAnswer> {
  const read = await readActionForm(request, (message): ChargeOffActionData => ({ ok: false, intent: null, toast: errorToast("The request was refused", message), at: Date.now() }), {
    limitBytes: MAX_CHARGE_OFF_FORM_BYTES,
    unreadableAsEmpty: true,
  });
  if (!read.ok) return read.answer;
  const values = formTexts(read.form);
  const schema = chargeOffIntentSchema(today)(values.intent);
  if (!schema) return answer(400, null, errorToast("The request was refused", CHARGE_OFF_MESSAGES.intent));
  const intent = values.intent as ChargeOffIntent;
  if (!(CHARGE_OFF_INTENTS as readonly string[]).includes(intent)) return answer(400, null, errorToast("The request was refused", CHARGE_OFF_MESSAGES.intent));
  if (!loanId) return answer(404, intent, errorToast(CHARGE_OFF_FAILED[intent], CHARGE_OFF_MESSAGES.loanNotFound));
  const parsed = schema.safeParse(values);
  if (!parsed.success) {
    const fieldErrors = issuesToFieldErrors(parsed.error);
    return answer(fieldErrors.requestId ? 404 : 400, intent, errorToast(CHARGE_OFF_FAILED[intent], parsed.error.issues[0]?.message ?? "Check the form and try again."), fieldErrors);
  }
  const input = parsed.data;
  try {
    switch (input.intent) {
      case "charge-off": {
        const result = await chargeOffLoan(loanId, input.reason, caller, db, today);
        return result.status === "charged_off"
          ? answer(200, intent, { type: "success", title: "Loan charged off", description: `${formatMoney(result.amountCents)} was moved to charged off. Later payments post as recoveries.` })
          : answer(200, intent, { type: "success", title: "Charge-off awaiting approval", description: `${formatMoney(result.amountCents)} is at or above the four-eyes threshold: another admin must approve it.` });
      }
      case "approve-charge-off": {
        const result = await approveChargeOff(loanId, input.requestId.toLowerCase(), caller, db, today);
        return answer(200, intent, { type: "success", title: "Loan charged off", description: `${formatMoney(result.amountCents)} was moved to charged off.` });
      }
      case "reject-charge-off":
        await rejectChargeOff(loanId, input.requestId.toLowerCase(), caller, db);
        return answer(200, intent, { type: "success", title: "Charge-off rejected", description: "The loan stays active." });
      case "settle": {
        const result = await settleLoan(loanId, input, caller, db, today);
        return answer(200, intent, { type: "success", title: "Loan settled", description: `${formatMoney(result.forgivenCents)} was forgiven; the loan is closed as Settled.` });
      }
    }
  } catch (error) {
    if (error instanceof AppError) return answer(error.status, intent, errorToast(CHARGE_OFF_FAILED[intent], error.message));
    logFailure("admin", "a charge-off action failed", error, { admin: caller.actor.id, loanId, intent });
    return answer(500, intent, errorToast(CHARGE_OFF_FAILED[intent], "Something went wrong on our side. Please try again."));
  }
}
