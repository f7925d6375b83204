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

/** Ends the autopay of a loan that takes no more debits, with its unsent debits. */
export async function endAutopayOfClosedLoan(tx: DbOrTx, loan: LoanRow, auth: AutopayRow): Promise<void> {
  const reason = loan.status === "paid_off" ? "The loan is paid in full." : "The loan takes no more payments.";
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

