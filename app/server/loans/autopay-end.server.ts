import { and, eq, isNull, sql } from "drizzle-orm";
import { recordEvent } from "~/server/conversation/index.server";
import { writeAudit } from "~/server/platform/audit/audit.server";
import type { DbOrTx } from "~/server/platform/db/client.server";
import { autopayAuthorizations, loanPayments } from "~/server/platform/db/schema.server";
import { enqueueEmail } from "~/server/platform/mail/outbox.server";
import { autopayCancelledEmail } from "./autopay-emails.server";
import type { AutopayRow } from "./autopay-records.server";
import type { LoanRow } from "./ledger.server";
import { loanMailSubject } from "./loan-reference.server";
import { loanOwner } from "./loan-owner.server";

export const AUTOPAY_END_REASONS = { paidInFull: "The loan is paid in full.", noMorePayments: "The loan takes no more payments." } as const;

/**
 * Ends the autopay of a loan that takes no more debits, with its unsent debits (no actor: the system),
 * audited, in the timeline and told to the borrower.
 */
export async function endAutopayOfClosedLoan(
  tx: DbOrTx,
  loan: LoanRow,
  auth: AutopayRow,
  reason: string = loan.status === "paid_off" ? AUTOPAY_END_REASONS.paidInFull : AUTOPAY_END_REASONS.noMorePayments,
): Promise<void> {
  await tx
    .update(autopayAuthorizations)
    .set({ status: "cancelled", endedAt: sql`now()`, endedBy: null, endReason: reason, nextQueueOn: null, updatedAt: sql`now()` })
    .where(and(eq(autopayAuthorizations.id, auth.id), eq(autopayAuthorizations.status, "active")));
  await tx
    .update(loanPayments)
    .set({ status: "cancelled", cancelReason: reason, cancelledAt: sql`now()`, cancelledBy: null })
    .where(and(eq(loanPayments.loanId, loan.id), eq(loanPayments.status, "pending"), isNull(loanPayments.achBatchId), eq(loanPayments.autopayAuthorizationId, auth.id), isNull(loanPayments.retryOf)));
  await writeAudit(tx, { actor: null, action: "autopay.end", table: "autopay_authorizations", recordId: auth.id, details: { loanId: loan.id, reason, loanStatus: loan.status } });
  await recordEvent(tx, { applicationId: loan.applicationId, ownerId: loan.userId, kind: "autopay_off", actorId: null, actorSide: null, summary: `Autopay ended: ${reason}` });
  const owner = await loanOwner(tx, loan);
  if (owner) await enqueueEmail(tx, { to: owner.email, ...autopayCancelledEmail({ ...loanMailSubject(loan, owner.loanType), reason: reason.charAt(0).toLowerCase() + reason.slice(1), notes: [] }) });
}

/**
 * The loan was just paid off (inside the posting's transaction, loan locked): its autopay ends at once,
 * so the page never shows Autopay On for a loan that owes nothing. Waiting for the authorisation's next
 * queue day would leave it on for up to a month. A payoff later undone by a returned payment leaves
 * autopay off: the borrower sets it up again with a new authorisation.
 */
export async function endAutopayOnPayoff(tx: DbOrTx, loan: LoanRow): Promise<boolean> {
  const [auth] = await tx
    .select()
    .from(autopayAuthorizations)
    .where(and(eq(autopayAuthorizations.loanId, loan.id), eq(autopayAuthorizations.status, "active")))
    .limit(1);
  if (!auth) return false;
  await endAutopayOfClosedLoan(tx, loan, auth, AUTOPAY_END_REASONS.paidInFull);
  return true;
}
