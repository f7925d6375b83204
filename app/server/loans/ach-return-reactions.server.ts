import { and, eq, isNotNull, isNull, ne, sql } from "drizzle-orm";
import { retryPlan, retryReference, type NoRetryReason } from "~/domain/ach-retry";
import { returnReaction, type ReturnReactionKind } from "~/domain/ach-returns";
import { returnCodeText } from "~/domain/funding-checklist";
import { formatDay } from "~/domain/formats";
import { formatMoney } from "~/domain/money";
import { returnedDebitNextStep } from "~/domain/returned-debit-outcome";
import { stayCovers } from "~/domain/bankruptcy-stays";
import { parseServicingTerms } from "~/domain/servicing-terms";
import { recordEvent } from "~/server/conversation/index.server";
import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";
import type { DbOrTx } from "~/server/platform/db/client.server";
import { achBatches, loanFees, loanFlags, loanPayments } from "~/server/platform/db/schema.server";
import { enqueueEmail } from "~/server/platform/mail/outbox.server";
import { restrictAccount } from "./account-restrictions.server";
import { activeAutopays, stopAutopay } from "./autopay-records.server";
import { refreshLoan, type LoanRow } from "./ledger.server";
import { bankruptcyStaysOf } from "./loan-protections.server";
import { loanMailSubject } from "./loan-reference.server";
import { loanOwner } from "./loan-owner.server";
import { paymentReturnedEmail } from "./return-emails.server";

/**
 * What the product does when the bank returns a borrower's debit, by its return code
 * (docs/decisions/0093-ach-return-code-reactions.md), inside returnPayment's transaction with the loan
 * locked and the debit already marked returned:
 * - retry (R01/R09): a retry is queued five banking days after the return (docs/decisions/0092), at
 *   most twice per original debit and within 180 days of its file's effective date; a returned-payment
 *   fee only when the loan's terms have one.
 * - account_unusable (R02/R03/R04): the account is unusable; autopay from it stops; its unsent debits
 *   are cancelled; the borrower is asked for another account.
 * - unauthorized (R05/R07/R10/R11/R29): the account is blocked for debits; autopay stops; unsent
 *   debits from it are cancelled; staff get a flag; never a retry.
 * - no_retry (anything else): the borrower is told, nothing else.
 * Every reaction is audited (payment.return, with what was done), on the timeline (visible to the
 * borrower) and e-mailed, never with an account number.
 */

export type ReturnedDebitRow = typeof loanPayments.$inferSelect;

export type ReturnReactionResult = {
  kind: ReturnReactionKind;
  retry: { paymentId: string; scheduledOn: string; retryNumber: number } | null;
  /** Why a debit returned for funds is not tried again (null when retried or not retryable). */
  noRetryReason: NoRetryReason | "loan_not_active" | "other_debit_pending" | "not_sent" | "bankruptcy_stay" | null;
  feeCents: number | null;
  autopayStopped: boolean;
  /** Debits not sent yet that this return cancelled (autopay's next debit, retries, one-time debits from the account). */
  cancelledPaymentIds: string[];
  flagId: string | null;
  /** The debit had been posted (a late return): the payment left the ledger. */
  leftLedger: boolean;
  /** The loan had been paid off and owes again. */
  reopened: boolean;
  /** Debits collected after the payoff and owed back (Refund Due) on a loan that owes again: staff decide. */
  refundsDueHeld: number;
};

/** A debit's file effective date (null: never in a file). */
async function effectiveDateOf(tx: DbOrTx, paymentId: string): Promise<string | null> {
  const [row] = await tx
    .select({ effectiveDate: achBatches.effectiveDate })
    .from(loanPayments)
    .innerJoin(achBatches, eq(achBatches.id, loanPayments.achBatchId))
    .where(eq(loanPayments.id, paymentId))
    .limit(1);
  return row?.effectiveDate ?? null;
}

/** The returned-payment fee the loan's signed terms set (null: none, or terms this code cannot read). */
function returnedPaymentFeeOf(loan: LoanRow): number | null {
  if (loan.servicingTerms === null || loan.servicingTerms === undefined) return null;
  try {
    return parseServicingTerms(loan.servicingTerms).returnedPaymentFeeCents;
  } catch {
    return null;
  }
}

/**
 * Queues the retry of a debit returned for funds, when the rule allows one (a copy of the original's
 * authorisation and account, reference "-R1"/"-R2"); the unique index (retry_of, retry_number) keeps it
 * to one even if two reactions ran at once.
 */
async function queueRetry(
  tx: DbOrTx,
  loan: LoanRow,
  debit: ReturnedDebitRow,
  returnedOn: string,
  stayed: boolean,
): Promise<{ retry: ReturnReactionResult["retry"]; noRetryReason: ReturnReactionResult["noRetryReason"] }> {
  if (loan.status !== "active") return { retry: null, noRetryReason: "loan_not_active" };
  // Presenting a debit again is collecting, which a bankruptcy's automatic stay forbids.
  if (stayed) return { retry: null, noRetryReason: "bankruptcy_stay" };
  const originalId = debit.retryOf ?? debit.id;
  const [original] = originalId === debit.id ? [debit] : await tx.select().from(loanPayments).where(eq(loanPayments.id, originalId)).limit(1);
  const originalEffective = original ? await effectiveDateOf(tx, original.id) : null;
  if (!original || !originalEffective) return { retry: null, noRetryReason: "not_sent" };
  // A one-time debit the borrower authorised since is pending: presenting this one again could take twice.
  const [other] = await tx
    .select({ id: loanPayments.id })
    .from(loanPayments)
    .where(and(eq(loanPayments.loanId, loan.id), eq(loanPayments.source, "borrower"), eq(loanPayments.status, "pending"), isNull(loanPayments.retryOf), isNull(loanPayments.autopayAuthorizationId), ne(loanPayments.id, debit.id)))
    .limit(1);
  if (other) return { retry: null, noRetryReason: "other_debit_pending" };
  const [{ n } = { n: 0 }] = await tx.select({ n: sql<number>`count(*)::int` }).from(loanPayments).where(eq(loanPayments.retryOf, original.id));
  const plan = retryPlan(returnedOn, originalEffective, Number(n));
  if (plan.day === null) return { retry: null, noRetryReason: plan.reason };
  const [row] = await tx
    .insert(loanPayments)
    .values({
      loanId: loan.id,
      userId: original.userId,
      amountCents: original.amountCents,
      status: "pending",
      method: original.method,
      source: original.source,
      choice: original.choice,
      paymentType: original.paymentType,
      reference: retryReference(original.reference, plan.retryNumber),
      bankAccountId: original.bankAccountId,
      authorizationVersion: original.authorizationVersion,
      authorizedAt: original.authorizedAt,
      authorizationIp: original.authorizationIp,
      authorizationUserAgent: original.authorizationUserAgent,
      autopayAuthorizationId: original.autopayAuthorizationId,
      installmentNumber: original.installmentNumber,
      scheduledOn: plan.day,
      retryOf: original.id,
      retryNumber: plan.retryNumber,
    })
    .onConflictDoNothing()
    .returning({ id: loanPayments.id });
  if (!row) return { retry: null, noRetryReason: "limit" };
  return { retry: { paymentId: row.id, scheduledOn: plan.day, retryNumber: plan.retryNumber }, noRetryReason: null };
}

/** Cancels the loan's debits not sent yet that come from this account (retries and one-time debits), with the reason. */
async function cancelUnsentFromAccount(tx: DbOrTx, loanId: string, bankAccountId: string, reason: string, actorId: string | null) {
  return tx
    .update(loanPayments)
    .set({ status: "cancelled", cancelReason: reason, cancelledAt: sql`now()`, cancelledBy: actorId })
    .where(and(eq(loanPayments.loanId, loanId), eq(loanPayments.bankAccountId, bankAccountId), eq(loanPayments.source, "borrower"), eq(loanPayments.status, "pending"), isNull(loanPayments.achBatchId)))
    .returning({ id: loanPayments.id, amountCents: loanPayments.amountCents });
}

/** The retries of this debit's original not sent yet (an unauthorised or unusable return ends them all). */
async function cancelUnsentRetries(tx: DbOrTx, loanId: string, reason: string, actorId: string | null) {
  return tx
    .update(loanPayments)
    .set({ status: "cancelled", cancelReason: reason, cancelledAt: sql`now()`, cancelledBy: actorId })
    .where(and(eq(loanPayments.loanId, loanId), eq(loanPayments.status, "pending"), isNull(loanPayments.achBatchId), isNotNull(loanPayments.retryOf)))
    .returning({ id: loanPayments.id, amountCents: loanPayments.amountCents });
}

/**
 * Reacts to the return of `debit` (already marked returned, the loan locked). `wasPosted`: the debit
 * had settled and posted before the bank returned it (a late return), so the loan is re-derived
 * without it and may owe again.
 */
export async function reactToReturn(
  tx: DbOrTx,
  loan: LoanRow,
  debit: ReturnedDebitRow,
  input: { returnCode: string; returnedOn: string; wasPosted: boolean; today: string },
  { actor, request }: Caller,
): Promise<ReturnReactionResult> {
  const { returnCode, returnedOn, wasPosted, today } = input;
  const reaction = returnReaction(returnCode);
  const reason = returnCodeText(returnCode);
  const wasPaidOff = loan.status === "paid_off";
  // The payment leaves the ledger (a posted one) and the loan is re-derived: a loan it had paid off owes again.
  const state = await refreshLoan(tx, loan, today);
  const reopened = wasPaidOff && state.status !== "paid_in_full";
  const current: LoanRow = reopened ? { ...loan, status: "active", paidOffAt: null } : loan;

  const result: ReturnReactionResult = {
    kind: reaction.kind,
    retry: null,
    noRetryReason: null,
    feeCents: null,
    autopayStopped: false,
    cancelledPaymentIds: [],
    flagId: null,
    leftLedger: wasPosted,
    reopened,
    refundsDueHeld: 0,
  };
  if (reopened) {
    // Money collected after the payoff is owed back, but the loan owes again: staff decide (the audit and their answer say so).
    const [{ n } = { n: 0 }] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(loanPayments)
      .where(and(eq(loanPayments.loanId, loan.id), eq(loanPayments.status, "refund_due")));
    result.refundsDueHeld = Number(n);
  }
  const cancelledCents: number[] = [];
  // A debit sent before a bankruptcy filing may come back during the stay: no retry and no fee then.
  const stays = await bankruptcyStaysOf([loan.id], tx, today);
  const stayed = stays.activeToday.has(loan.id);

  if (reaction.kind === "retry") {
    const queued = await queueRetry(tx, current, debit, returnedOn, stayed);
    result.retry = queued.retry;
    result.noRetryReason = queued.noRetryReason;
    const feeCents = returnedPaymentFeeOf(loan);
    const installmentNumber = debit.installmentNumber ?? state.nextInstallment?.number ?? null;
    // The stay forbids adding to the debt on a day it covers (filing day through its end).
    const feeStayed = stayCovers(returnedOn, stays.periods.get(loan.id) ?? []);
    if (feeCents !== null && feeCents > 0 && installmentNumber !== null && !feeStayed) {
      // One returned-payment fee per installment (the unique key): a returned retry adds none.
      const [fee] = await tx
        .insert(loanFees)
        .values({ loanId: loan.id, kind: "returned_payment_fee", installmentNumber, amountCents: feeCents, assessedOn: returnedOn })
        .onConflictDoNothing()
        .returning({ id: loanFees.id });
      if (fee) {
        result.feeCents = feeCents;
        await writeAudit(tx, {
          actor,
          action: "fee.assess",
          table: "loan_fees",
          recordId: fee.id,
          details: { loanId: loan.id, kind: "returned_payment_fee", installmentNumber, amountCents: feeCents, assessedOn: returnedOn, paymentId: debit.id, returnCode },
          request,
        });
        await refreshLoan(tx, current, today);
      }
    }
  }

  if (reaction.stopsAutopay) {
    const active = (await activeAutopays([loan.id], tx)).get(loan.id);
    // An unauthorised return ends autopay whatever its account (the borrower disputes our debits); an
    // unusable account ends the autopay that debits it.
    const stops = active !== undefined && (reaction.kind === "unauthorized" || active.bankAccountId === debit.bankAccountId);
    if (stops) {
      const stop = await stopAutopay(tx, loan.id, { reason: `The bank returned a debit (${reason}).`, returnCode, actorId: actor.id });
      result.autopayStopped = stop.stopped !== null;
      for (const c of stop.cancelled) {
        result.cancelledPaymentIds.push(c.id);
        cancelledCents.push(c.amountCents);
      }
    }
    const cancelReason = `The bank returned a debit from this account (${reason}).`;
    const more = [...(await cancelUnsentRetries(tx, loan.id, cancelReason, actor.id)), ...(debit.bankAccountId ? await cancelUnsentFromAccount(tx, loan.id, debit.bankAccountId, cancelReason, actor.id) : [])];
    for (const c of more) {
      if (result.cancelledPaymentIds.includes(c.id)) continue;
      result.cancelledPaymentIds.push(c.id);
      cancelledCents.push(c.amountCents);
    }
    for (const id of result.cancelledPaymentIds)
      await writeAudit(tx, { actor, action: "payment.cancel", table: "loan_payments", recordId: id, details: { loanId: loan.id, reason: "returned_debit", returnCode, returnedPaymentId: debit.id }, request });
  }
  if (reaction.restriction && debit.bankAccountId) await restrictAccount(tx, debit.bankAccountId, reaction.restriction, returnCode, debit.id);
  if (reaction.flagsStaff) {
    const [flag] = await tx
      .insert(loanFlags)
      .values({
        loanId: loan.id,
        kind: "unauthorized_return",
        paymentId: debit.id,
        returnCode,
        summary: `The borrower's bank returned a debit of ${formatMoney(debit.amountCents)} as not authorized (${reason}). The account is blocked for debits${result.autopayStopped ? " and autopay stopped" : ""}: contact the borrower before any further debit.`,
      })
      .returning({ id: loanFlags.id });
    result.flagId = flag!.id;
  }

  const fromAutopay = debit.autopayAuthorizationId !== null;
  const nextStep = returnedDebitNextStep({
    kind: reaction.kind,
    retry: result.retry ? { status: "pending", scheduledOn: result.retry.scheduledOn, receivedOn: null } : null,
    fromAutopay: fromAutopay || result.autopayStopped,
    stayed,
  });
  const nextStepText = reaction.kind === "account_unusable" ? `${nextStep} Use Change Bank Account on your loan's page.` : nextStep;

  await writeAudit(tx, {
    actor,
    action: "payment.return",
    table: "loan_payments",
    recordId: debit.id,
    details: {
      loanId: loan.id,
      amountCents: debit.amountCents,
      returnCode,
      returnedOn,
      reaction: reaction.kind,
      wasPosted,
      reopened,
      refundsDueHeld: result.refundsDueHeld,
      retryOn: result.retry?.scheduledOn ?? null,
      retryId: result.retry?.paymentId ?? null,
      retryNumber: result.retry?.retryNumber ?? null,
      noRetryReason: result.noRetryReason,
      feeCents: result.feeCents,
      autopayStopped: result.autopayStopped,
      restriction: reaction.restriction,
      cancelled: result.cancelledPaymentIds,
      flagId: result.flagId,
    },
    request,
  });

  const event = { applicationId: loan.applicationId, ownerId: loan.userId, actorId: actor.id, actorSide: "staff" as const };
  await recordEvent(tx, { ...event, kind: "payment_returned", summary: `Your bank returned the payment of ${formatMoney(debit.amountCents)} (${reason}). ${nextStep}` });
  if (result.retry)
    await recordEvent(tx, { ...event, kind: "payment_retry", summary: `We will present the payment of ${formatMoney(debit.amountCents)} again on ${formatDay(result.retry.scheduledOn)}.` });
  if (result.autopayStopped) await recordEvent(tx, { ...event, kind: "autopay_off", summary: `Autopay stopped: your bank returned a debit (${reason}).` });

  const owner = await loanOwner(tx, loan);
  if (owner)
    await enqueueEmail(tx, {
      to: owner.email,
      ...paymentReturnedEmail({
        ...loanMailSubject(loan, owner.loanType),
        amountCents: debit.amountCents,
        reference: debit.reference,
        returnedOn,
        reason,
        nextStep: nextStepText,
        feeCents: result.feeCents,
        cancelledCents,
        wasPosted,
        owesAgain: reopened,
      }),
    });
  return result;
}
