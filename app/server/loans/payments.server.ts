import { and, eq, isNotNull, ne, or, sql } from "drizzle-orm";
import { formatMoney } from "~/domain/money";
import { unfundedPaymentRefusal } from "~/domain/funding-checklist";
import { loanMailSubject } from "./loan-reference.server";
import { replayLedger, type LedgerState } from "~/domain/loan-servicing";
import type { PaymentMethod } from "~/domain/servicing-enums";
import { LOAN_PAYMENT_MESSAGES } from "~/domain/validation/loan-payments";
import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";

import { todayUtc } from "~/domain/dates";
import { getDb, type Db, type DbOrTx } from "~/server/platform/db/client.server";
import { achBatches, loanPayments } from "~/server/platform/db/schema.server";
import { refundDueEmail, refundSentEmail } from "~/server/loans/debit-emails.server";
import { enqueueEmail } from "~/server/platform/mail/outbox.server";
import { paidInFullEmail } from "~/server/loans/servicing-emails.server";
import { cancelUnsentDebitsOnPayoff } from "./debit-cancellation.server";
import { endAutopayOnPayoff } from "./autopay-end.server";
import { ledgerRows, lockLoan, refreshLoan, termsOf, type LoanRow } from "./ledger.server";
import { loanOwner } from "./loan-owner.server";
import { closeOpenPromises, reopenPromises, settlePromises } from "./collections.server";
import { closeHardshipOnLoanClosed } from "./hardship-close.server";
import { AppError } from "~/server/platform/http/app-error.server";
import { reactToReturn, type ReturnReactionResult } from "./ach-return-reactions.server";

/**
 * Posting to a loan's ledger: Record Payment (staff), Reverse Payment, and settling or
 * returning a borrower's pending ACH debit. Each is one transaction that first locks the loan's row
 * (so changes to one ledger are serialised), changes the payment with a conditional statement, then
 * re-derives the loan's summary from the replayed ledger (refreshLoan), writes the audit row, and,
 * when a payment paid the loan off, queues the paid-in-full e-mail. A reference is posted once per
 * loan (the unique key loan_payments_loan_id_reference_key decides, also between two staff at once).
 */

export const SERVICING_MESSAGES = {
  loanNotFound: "This loan does not exist.",
  paymentNotFound: "This payment does not exist.",
  notActive: "This loan is paid in full: it takes no more payments.",
  duplicateReference: "This reference has already been posted on this loan.",
  notPosted: "Only a posted payment can be reversed; this one was already reversed, returned or is still pending.",
  notPending: "Only a pending payment can be settled or returned; this one was already settled, returned or reversed.",
  receivedInFuture: "The received date cannot be in the future.",
  receivedBeforeStart: "The received date cannot be before the loan started.",
  settledBeforeEffective: "The settlement date cannot be before the ACH file's effective date",
  settledBeforeAuthorized: "The settlement date cannot be before the borrower authorized the debit",
  returnedBeforeEffective: "The return date cannot be before the ACH file's effective date",
  returnedInFuture: "The return date cannot be in the future.",
  alreadyReturned: (code: string, day: string) => `This debit was already returned (${code} on ${day}): a return is recorded once.`,
  notReturnable: "Only a pending borrower debit, or one that posted from an ACH file, can be returned; this one was reversed, cancelled or refunded, or was recorded by staff.",
  notRefundDue: "Only a debit marked Refund Due can be marked refunded; this one was already refunded or was never collected after payoff.",
  refundBeforeReceived: "The refund date cannot be before the day the debit was received.",
  refundInFuture: "The refund date cannot be in the future.",
  idempotencyKeyReused: LOAN_PAYMENT_MESSAGES.idempotencyKeyReused,
} as const;

/** Record Payment while a borrower debit is pending: the warning staff must confirm (with the amount). */
export function pendingDebitWarning(amountCents: number, sent: boolean): string {
  return `A borrower debit of ${formatMoney(amountCents)} is pending on this loan${sent ? " and was already sent to the bank in an ACH file" : ""}. Recording this payment as well may collect more than is owed; confirm that you want to record it.`;
}

/**
 * confirmPendingDebit: staff saw the warning that a borrower debit is pending and record the payment
 * anyway. idempotencyKey: the Record Payment form's key; a second post with it posts nothing and is
 * answered with the first's result (decision 0073).
 */
export type RecordPaymentInput = { amountCents: number; receivedOn: string; method: PaymentMethod; reference: string; confirmPendingDebit?: boolean; idempotencyKey?: string };

/** replayed: the form's key had already posted this payment; nothing was written this time. */
export type PostingResult = { paymentId: string; state: LedgerState; paidInFull: boolean; replayed?: boolean };

/** Record Payment refused until staff confirm it: a borrower debit is pending on the loan (409, on the confirmation box). */
export const pendingDebitUnconfirmed = (pendingCents: number, sent: boolean) =>
  new AppError("pending_debit_unconfirmed", 409, pendingDebitWarning(pendingCents, sent), { field: "confirmPendingDebit" });

function checkReceivedOn(loan: LoanRow, receivedOn: string, today: string): void {
  if (receivedOn > today) throw new AppError("servicing", 400, SERVICING_MESSAGES.receivedInFuture);
  if (receivedOn < loan.startDate) throw new AppError("servicing", 400, SERVICING_MESSAGES.receivedBeforeStart);
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } };
  return e?.code === "23505" || e?.cause?.code === "23505";
}

/**
 * After a change to the ledger (loan locked): re-derive the loan; when this change paid it off, cancel
 * the borrower's debits not sent yet and end autopay (so a paid-off loan is never debited again),
 * close what only a loan that still owes can have (promises, a hardship request and its offer) and
 * send the paid-in-full e-mail.
 */
async function afterPosting(tx: DbOrTx, loan: LoanRow, wasPaidOff: boolean, today: string, { actor, request }: Caller): Promise<{ state: LedgerState; paidInFull: boolean }> {
  const state = await refreshLoan(tx, loan, today);
  // A promise to pay that this payment completes closes itself as kept, with the payment.
  await settlePromises(tx, loan.id, { actor, request });
  const paidInFull = state.status === "paid_in_full" && !wasPaidOff;
  if (paidInFull) {
    await cancelUnsentDebitsOnPayoff(tx, loan, { actor, request });
    await endAutopayOnPayoff(tx, loan);
    await closeOpenPromises(tx, loan.id, "kept", { actor, request });
    await closeHardshipOnLoanClosed(tx, loan.id, "paid_in_full", { actor, request });
    const owner = await loanOwner(tx, loan);
    if (owner) await enqueueEmail(tx, { to: owner.email, ...paidInFullEmail(loanMailSubject(loan, owner.loanType)) });
  }
  return { state, paidInFull };
}

/** The borrower debit pending on a locked loan, if any (at most one: Make a Payment allows one at a time). */
async function pendingBorrowerDebit(tx: DbOrTx, loanId: string): Promise<{ amountCents: number; sent: boolean } | null> {
  const [row] = await tx
    .select({ amountCents: loanPayments.amountCents, batchId: loanPayments.achBatchId })
    .from(loanPayments)
    .where(and(eq(loanPayments.loanId, loanId), eq(loanPayments.source, "borrower"), eq(loanPayments.status, "pending")))
    .limit(1);
  return row ? { amountCents: row.amountCents, sent: row.batchId !== null } : null;
}

/**
 * The payment an earlier post of the same Record Payment form made, as that post's answer (the loan
 * locked): same key and same values, whatever its status now (a reversed one was still posted by
 * that form). The same key with other values is refused: a form is one payment. Null: not posted yet.
 */
async function postedWithKey(tx: DbOrTx, loan: LoanRow, input: RecordPaymentInput, today: string): Promise<PostingResult | null> {
  const [earlier] = await tx
    .select()
    .from(loanPayments)
    .where(and(eq(loanPayments.loanId, loan.id), eq(loanPayments.idempotencyKey, input.idempotencyKey!)))
    .limit(1);
  if (!earlier) return null;
  const same = earlier.amountCents === input.amountCents && earlier.receivedOn === input.receivedOn && earlier.method === input.method && earlier.reference === input.reference;
  if (!same) throw new AppError("servicing", 409, SERVICING_MESSAGES.idempotencyKeyReused);
  const rows = await ledgerRows(loan.id, tx);
  const state = replayLedger(termsOf(loan), rows.payments, rows.fees, today);
  // The first post paid the loan off when the loan is paid off and no payment was posted after it
  // (compared in the database: a JavaScript Date keeps milliseconds, PostgreSQL microseconds).
  const [later] = await tx
    .select({ id: loanPayments.id })
    .from(loanPayments)
    .where(
      and(
        eq(loanPayments.loanId, loan.id),
        eq(loanPayments.status, "posted"),
        ne(loanPayments.id, earlier.id),
        sql`${loanPayments.createdAt} >= (select p.created_at from loan_payments p where p.id = ${earlier.id})`,
      ),
    )
    .limit(1);
  return { paymentId: earlier.id, state, paidInFull: loan.status === "paid_off" && earlier.status === "posted" && !later, replayed: true };
}

/** Record Payment: a payment staff received (ACH, wire or check), posted at once. */
export async function recordPayment(loanId: string, input: RecordPaymentInput, { actor, request }: Caller, db: Db = getDb(), today: string = todayUtc()): Promise<PostingResult> {
  try {
    return await db.transaction(async (tx) => {
      const loan = await lockLoan(tx, loanId);
      if (!loan) throw new AppError("servicing", 404, SERVICING_MESSAGES.loanNotFound);
      // Under the loan's lock, so a second post of the same form waits for the first and then finds it.
      if (input.idempotencyKey) {
        const earlier = await postedWithKey(tx, loan, input, today);
        if (earlier) return earlier;
      }
      if (loan.status === "paid_off") throw new AppError("servicing", 409, SERVICING_MESSAGES.notActive);
      const unfunded = unfundedPaymentRefusal(loan.status);
      if (unfunded) throw new AppError("servicing", 409, unfunded);
      checkReceivedOn(loan, input.receivedOn, today);
      const pending = await pendingBorrowerDebit(tx, loanId);
      if (pending && !input.confirmPendingDebit) throw pendingDebitUnconfirmed(pending.amountCents, pending.sent);
      const [payment] = await tx
        .insert(loanPayments)
        .values({
          loanId,
          userId: loan.userId,
          amountCents: input.amountCents,
          status: "posted",
          method: input.method,
          source: "staff",
          reference: input.reference,
          receivedOn: input.receivedOn,
          postedAt: sql`now()`,
          postedBy: actor.id,
          // Money received on a charged-off loan is a recovery (applied after the charge-off), decided under the loan's lock.
          recovery: loan.status === "charged_off",
          idempotencyKey: input.idempotencyKey ?? null,
        })
        .returning({ id: loanPayments.id });
      const { state, paidInFull } = await afterPosting(tx, loan, false, today, { actor, request });
      const allocation = state.allocations.find((a) => a.paymentId === payment!.id);
      await writeAudit(tx, {
        actor,
        action: "payment.post",
        table: "loan_payments",
        recordId: payment!.id,
        details: { loanId, amountCents: input.amountCents, receivedOn: input.receivedOn, method: input.method, reference: input.reference, allocation, paidInFull, pendingDebitConfirmed: pending !== null },
        request,
      });
      return { paymentId: payment!.id, state, paidInFull };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("servicing", 409, SERVICING_MESSAGES.duplicateReference);
    throw error;
  }
}

/** Reverse Payment (returned / NSF): the payment leaves the ledger and every later one is re-allocated. */
export async function reversePayment(paymentId: string, reason: string, { actor, request }: Caller, db: Db = getDb(), today: string = todayUtc()): Promise<PostingResult> {
  return db.transaction(async (tx) => {
    const [target] = await tx.select({ loanId: loanPayments.loanId }).from(loanPayments).where(eq(loanPayments.id, paymentId)).limit(1);
    if (!target) throw new AppError("servicing", 404, SERVICING_MESSAGES.paymentNotFound);
    const loan = (await lockLoan(tx, target.loanId))!;
    const [reversed] = await tx
      .update(loanPayments)
      .set({ status: "reversed", reversalReason: reason, reversedAt: sql`now()`, reversedBy: actor.id })
      .where(and(eq(loanPayments.id, paymentId), eq(loanPayments.status, "posted")))
      .returning({ id: loanPayments.id, amountCents: loanPayments.amountCents });
    if (!reversed) throw new AppError("servicing", 409, SERVICING_MESSAGES.notPosted);
    const state = await refreshLoan(tx, loan, today);
    await reopenPromises(tx, loan.id, { actor, request });
    await writeAudit(tx, { actor, action: "payment.reverse", table: "loan_payments", recordId: paymentId, details: { loanId: loan.id, amountCents: reversed.amountCents, reason }, request });
    return { paymentId, state, paidInFull: false };
  });
}

/** A pending borrower debit in an ACH file, with what its settlement and return dates are checked against. */
async function sentDebit(tx: DbOrTx, paymentId: string): Promise<{ loanId: string; effectiveDate: string | null; authorizedOn: string | null } | null> {
  const [row] = await tx
    .select({
      loanId: loanPayments.loanId,
      effectiveDate: achBatches.effectiveDate,
      authorizedOn: sql<string | null>`(${loanPayments.authorizedAt} at time zone 'UTC')::date::text`,
    })
    .from(loanPayments)
    .leftJoin(achBatches, eq(achBatches.id, loanPayments.achBatchId))
    .where(eq(loanPayments.id, paymentId))
    .limit(1);
  return row ?? null;
}

export type SettlementResult = PostingResult & { refundDue: boolean };

/**
 * A pending borrower debit settled (the bank collected it). Normally it is posted with the settlement
 * date as its received date. When the loan was paid off in the meantime it is not posted: it becomes
 * Refund Due (money the lender owes back), audited and told to the borrower. The settlement date is
 * never before the file's effective date (nor the day the borrower authorised the debit), never after today.
 */
export async function settlePayment(paymentId: string, receivedOn: string, { actor, request }: Caller, db: Db = getDb(), today: string = todayUtc()): Promise<SettlementResult> {
  return db.transaction(async (tx) => {
    const target = await sentDebit(tx, paymentId);
    if (!target) throw new AppError("servicing", 404, SERVICING_MESSAGES.paymentNotFound);
    const loan = (await lockLoan(tx, target.loanId))!;
    checkReceivedOn(loan, receivedOn, today);
    if (target.effectiveDate && receivedOn < target.effectiveDate) throw new AppError("servicing", 400, `${SERVICING_MESSAGES.settledBeforeEffective} (${target.effectiveDate}).`);
    if (target.authorizedOn && receivedOn < target.authorizedOn) throw new AppError("servicing", 400, `${SERVICING_MESSAGES.settledBeforeAuthorized} (${target.authorizedOn}).`);
    const wasPaidOff = loan.status === "paid_off";
    // A settled loan owes nothing either: a debit the bank collected after the settlement is owed back.
    if (wasPaidOff || loan.status === "settled") {
      const [due] = await tx
        .update(loanPayments)
        .set({ status: "refund_due", receivedOn })
        .where(and(eq(loanPayments.id, paymentId), eq(loanPayments.status, "pending")))
        .returning({ id: loanPayments.id, amountCents: loanPayments.amountCents, reference: loanPayments.reference });
      if (!due) throw new AppError("servicing", 409, SERVICING_MESSAGES.notPending);
      await writeAudit(tx, { actor, action: "payment.refund_due", table: "loan_payments", recordId: paymentId, details: { loanId: loan.id, amountCents: due.amountCents, receivedOn }, request });
      const owner = await loanOwner(tx, loan);
      if (owner)
        await enqueueEmail(tx, {
          to: owner.email,
          ...refundDueEmail({ ...loanMailSubject(loan, owner.loanType), amountCents: due.amountCents, reference: due.reference, receivedOn }),
        });
      const state = await refreshLoan(tx, loan, today);
      return { paymentId, state, paidInFull: false, refundDue: true };
    }
    const [settled] = await tx
      .update(loanPayments)
      .set({ status: "posted", receivedOn, postedAt: sql`now()`, postedBy: actor.id, recovery: loan.status === "charged_off" })
      .where(and(eq(loanPayments.id, paymentId), eq(loanPayments.status, "pending")))
      .returning({ id: loanPayments.id, amountCents: loanPayments.amountCents });
    if (!settled) throw new AppError("servicing", 409, SERVICING_MESSAGES.notPending);
    const { state, paidInFull } = await afterPosting(tx, loan, wasPaidOff, today, { actor, request });
    await writeAudit(tx, { actor, action: "payment.settle", table: "loan_payments", recordId: paymentId, details: { loanId: loan.id, amountCents: settled.amountCents, receivedOn, paidInFull }, request });
    return { paymentId, state, paidInFull, refundDue: false };
  });
}

/**
 * A borrower debit returned by the bank (NACHA return code, on the day the bank returned it): a pending
 * one never reaches the ledger; a posted one (the bank returned it after it settled) leaves it, and a
 * loan it had paid off owes again. Then the product reacts by the code (ach-return-reactions.server.ts:
 * a retry, a fee when the terms have one, autopay stopped, the account restricted, staff flagged), all
 * in this transaction with the loan locked, so two returns of the same entry at once leave one
 * reaction; a second return is refused. The return date is never before the file's effective date nor
 * after today.
 */
export async function returnPayment(paymentId: string, returnCode: string, returnedOn: string, caller: Caller, db: Db = getDb(), today: string = todayUtc()): Promise<ReturnReactionResult> {
  return db.transaction(async (tx) => {
    const target = await sentDebit(tx, paymentId);
    if (!target) throw new AppError("servicing", 404, SERVICING_MESSAGES.paymentNotFound);
    if (returnedOn > today) throw new AppError("servicing", 400, SERVICING_MESSAGES.returnedInFuture);
    if (target.effectiveDate && returnedOn < target.effectiveDate) throw new AppError("servicing", 400, `${SERVICING_MESSAGES.returnedBeforeEffective} (${target.effectiveDate}).`);
    const loan = (await lockLoan(tx, target.loanId))!;
    const [before] = await tx.select({ status: loanPayments.status, returnCode: loanPayments.returnCode, returnedOn: loanPayments.returnedOn }).from(loanPayments).where(eq(loanPayments.id, paymentId)).limit(1);
    if (before?.status === "returned") throw new AppError("servicing", 409, SERVICING_MESSAGES.alreadyReturned(before.returnCode ?? "", before.returnedOn ?? ""));
    // A pending debit, or a borrower debit that posted from an ACH file (a late return); never a payment staff recorded.
    const [returned] = await tx
      .update(loanPayments)
      .set({ status: "returned", returnCode, returnedOn })
      .where(
        and(
          eq(loanPayments.id, paymentId),
          or(eq(loanPayments.status, "pending"), and(eq(loanPayments.status, "posted"), eq(loanPayments.source, "borrower"), isNotNull(loanPayments.achBatchId))),
        ),
      )
      .returning();
    if (!returned) throw new AppError("servicing", 409, SERVICING_MESSAGES.notReturnable);
    const reaction = await reactToReturn(tx, loan, returned, { returnCode, returnedOn, wasPosted: before?.status === "posted", today }, caller);
    if (before?.status === "posted") await reopenPromises(tx, loan.id, caller);
    return reaction;
  });
}

/** Mark Refunded: a Refund Due debit was sent back to the borrower (check, wire or ACH credit), with its reference. */
export async function markRefunded(paymentId: string, refundedOn: string, refundReference: string, { actor, request }: Caller, db: Db = getDb(), today: string = todayUtc()): Promise<{ amountCents: number }> {
  return db.transaction(async (tx) => {
    const [target] = await tx.select({ loanId: loanPayments.loanId, receivedOn: loanPayments.receivedOn }).from(loanPayments).where(eq(loanPayments.id, paymentId)).limit(1);
    if (!target) throw new AppError("servicing", 404, SERVICING_MESSAGES.paymentNotFound);
    if (refundedOn > today) throw new AppError("servicing", 400, SERVICING_MESSAGES.refundInFuture);
    if (target.receivedOn && refundedOn < target.receivedOn) throw new AppError("servicing", 400, SERVICING_MESSAGES.refundBeforeReceived);
    const loan = (await lockLoan(tx, target.loanId))!;
    const [refunded] = await tx
      .update(loanPayments)
      .set({ status: "refunded", refundedOn, refundReference, refundedBy: actor.id })
      .where(and(eq(loanPayments.id, paymentId), eq(loanPayments.status, "refund_due")))
      .returning({ id: loanPayments.id, amountCents: loanPayments.amountCents });
    if (!refunded) throw new AppError("servicing", 409, SERVICING_MESSAGES.notRefundDue);
    await writeAudit(tx, { actor, action: "payment.refund", table: "loan_payments", recordId: paymentId, details: { loanId: loan.id, amountCents: refunded.amountCents, refundedOn, refundReference }, request });
    const owner = await loanOwner(tx, loan);
    if (owner)
      await enqueueEmail(tx, {
        to: owner.email,
        ...refundSentEmail({ ...loanMailSubject(loan, owner.loanType), amountCents: refunded.amountCents, refundedOn, refundReference }),
      });
    return { amountCents: refunded.amountCents };
  });
}
