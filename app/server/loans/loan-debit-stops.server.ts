import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";
import type { DbOrTx } from "~/server/platform/db/client.server";
import { loanPayments } from "~/server/platform/db/schema.server";
import { enqueueEmail } from "~/server/platform/mail/outbox.server";
import { stopAutopay } from "./autopay-records.server";
import { debitCancelledEmail } from "./debit-emails.server";
import type { LoanRow } from "./ledger.server";
import { loanMailSubject } from "./loan-reference.server";
import { loanOwner } from "./loan-owner.server";

/**
 * Stopping every debit of a loan at once (inside the caller's transaction, the loan locked): when it is
 * charged off or settled (nothing more is owed by schedule), or the borrower files for bankruptcy (the
 * automatic stay forbids collecting). Autopay stops, and every borrower debit not yet in an ACH file is
 * cancelled (autopay's, retries and one-time payments alike); a debit already sent is the bank's to
 * settle or return. Each is audited, and the borrower is told which debit will not be taken (never an
 * account number); that is information, not a demand for payment, so it goes during a stay as well.
 */
export async function stopLoanDebits(tx: DbOrTx, loan: LoanRow, why: { reason: string; auditReason: string }, { actor, request }: Caller): Promise<{ autopayStopped: boolean; cancelled: number }> {
  const stop = await stopAutopay(tx, loan.id, { reason: why.reason, returnCode: null, actorId: actor.id });
  const stopped = stop.stopped;
  if (stopped)
    await writeAudit(tx, { actor, action: "autopay.end", table: "autopay_authorizations", recordId: stopped.id, details: { loanId: loan.id, reason: why.auditReason }, request });
  // stopAutopay cancelled autopay's own unsent debits; this cancels every other unsent one.
  const cancelled = await tx
    .update(loanPayments)
    .set({ status: "cancelled", cancelReason: why.reason, cancelledAt: sql`now()`, cancelledBy: actor.id })
    .where(and(eq(loanPayments.loanId, loan.id), eq(loanPayments.source, "borrower"), eq(loanPayments.status, "pending"), isNull(loanPayments.achBatchId)))
    .returning({ id: loanPayments.id, amountCents: loanPayments.amountCents, reference: loanPayments.reference });
  const autopayCancelled =
    stop.cancelled.length === 0
      ? []
      : await tx
          .select({ id: loanPayments.id, amountCents: loanPayments.amountCents, reference: loanPayments.reference })
          .from(loanPayments)
          .where(inArray(loanPayments.id, stop.cancelled.map((c) => c.id)));
  const all = new Map([...autopayCancelled, ...cancelled].map((c) => [c.id, c]));
  for (const c of all.values())
    await writeAudit(tx, { actor, action: "payment.cancel", table: "loan_payments", recordId: c.id, details: { loanId: loan.id, amountCents: c.amountCents, reason: why.auditReason }, request });
  if (all.size > 0) {
    const owner = await loanOwner(tx, loan);
    if (owner)
      for (const c of all.values())
        await enqueueEmail(tx, { to: owner.email, ...debitCancelledEmail({ ...loanMailSubject(loan, owner.loanType), amountCents: c.amountCents, reference: c.reference, reason: why.reason }) });
  }
  return { autopayStopped: stopped !== null, cancelled: all.size };
}
