import { and, eq, isNull, sql } from "drizzle-orm";
import { writeAudit, type AuditActor, type Caller } from "~/server/platform/audit/audit.server";
import { loanMailSubject } from "./loan-reference.server";

import { getDb, type Db, type DbOrTx } from "~/server/platform/db/client.server";
import { loanPayments } from "~/server/platform/db/schema.server";
import { enqueueEmail } from "~/server/platform/mail/outbox.server";
import { debitCancelledEmail } from "~/server/loans/debit-emails.server";
import { lockLoan, type LoanRow } from "./ledger.server";
import { loanOwner } from "./loan-owner.server";
import { AppError } from "~/server/platform/http/app-error.server";

/**
 * Cancelling a borrower's pending one-time ACH debit before it is sent to the bank (docs/decisions/
 * 0064-debits-after-payoff-cancel-and-refund.md). Only a debit that is still Pending and in no ACH
 * file can be cancelled: once the file has left, the bank decides, and a debit it collects after the
 * loan was paid off becomes a refund (payments.server.ts). Each cancellation is one conditional UPDATE
 * under the loan's row lock, audited ('payment.cancel') and told to the borrower by e-mail through the
 * outbox in the same transaction.
 */

export const DEBIT_CANCEL_MESSAGES = {
  notCancellable: "Only a pending debit that is not in an ACH file yet can be cancelled; this one was already sent, settled, returned or cancelled.",
  paymentNotFound: "This payment does not exist.",
  paidOffReason: "Your loan was paid in full before this debit was sent.",
} as const;

type Cancelled = { id: string; amountCents: number; reference: string };

async function tellBorrower(tx: DbOrTx, loan: LoanRow, cancelled: Cancelled[], reason: string): Promise<void> {
  if (cancelled.length === 0) return;
  const owner = await loanOwner(tx, loan);
  if (!owner) return;
  for (const c of cancelled)
    await enqueueEmail(tx, {
      to: owner.email,
      ...debitCancelledEmail({ ...loanMailSubject(loan, owner.loanType), amountCents: c.amountCents, reference: c.reference, reason }),
    });
}

/**
 * The loan was just paid off (inside the posting's transaction, loan locked): every pending borrower
 * debit not sent yet is cancelled, so the borrower is never debited for a loan they no longer owe.
 */
export async function cancelUnsentDebitsOnPayoff(tx: DbOrTx, loan: LoanRow, { actor, request }: Caller<AuditActor | null>): Promise<number> {
  const cancelled = await tx
    .update(loanPayments)
    .set({ status: "cancelled", cancelReason: DEBIT_CANCEL_MESSAGES.paidOffReason, cancelledAt: sql`now()`, cancelledBy: null })
    .where(and(eq(loanPayments.loanId, loan.id), eq(loanPayments.source, "borrower"), eq(loanPayments.status, "pending"), isNull(loanPayments.achBatchId)))
    .returning({ id: loanPayments.id, amountCents: loanPayments.amountCents, reference: loanPayments.reference });
  for (const c of cancelled)
    await writeAudit(tx, {
      actor,
      action: "payment.cancel",
      table: "loan_payments",
      recordId: c.id,
      details: { loanId: loan.id, amountCents: c.amountCents, reason: "paid_off" },
      request,
    });
  await tellBorrower(tx, loan, cancelled, DEBIT_CANCEL_MESSAGES.paidOffReason);
  return cancelled.length;
}

/** Cancel Debit (staff, /admin/ach): one pending, unsent borrower debit, with the reason the borrower is told. */
export async function cancelDebit(paymentId: string, reason: string, { actor, request }: Caller, db: Db = getDb()): Promise<{ amountCents: number }> {
  return db.transaction(async (tx) => {
    const [target] = await tx.select({ loanId: loanPayments.loanId, source: loanPayments.source }).from(loanPayments).where(eq(loanPayments.id, paymentId)).limit(1);
    if (!target) throw new AppError("servicing", 404, DEBIT_CANCEL_MESSAGES.paymentNotFound);
    if (target.source !== "borrower") throw new AppError("servicing", 409, DEBIT_CANCEL_MESSAGES.notCancellable);
    const loan = (await lockLoan(tx, target.loanId))!;
    const [cancelled] = await tx
      .update(loanPayments)
      .set({ status: "cancelled", cancelReason: reason, cancelledAt: sql`now()`, cancelledBy: actor.id })
      .where(and(eq(loanPayments.id, paymentId), eq(loanPayments.source, "borrower"), eq(loanPayments.status, "pending"), isNull(loanPayments.achBatchId)))
      .returning({ id: loanPayments.id, amountCents: loanPayments.amountCents, reference: loanPayments.reference });
    if (!cancelled) throw new AppError("servicing", 409, DEBIT_CANCEL_MESSAGES.notCancellable);
    await writeAudit(tx, {
      actor,
      action: "payment.cancel",
      table: "loan_payments",
      recordId: paymentId,
      details: { loanId: loan.id, amountCents: cancelled.amountCents, reason },
      request,
    });
    await tellBorrower(tx, loan, [cancelled], reason);
    return { amountCents: cancelled.amountCents };
  });
}
