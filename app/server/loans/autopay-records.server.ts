import { and, eq, inArray, isNull, or, isNotNull, sql } from "drizzle-orm";
import type { DbOrTx } from "~/server/platform/db/client.server";
import { getDb } from "~/server/platform/db/client.server";
import { autopayAuthorizations, loanPayments } from "~/server/platform/db/schema.server";

/**
 * The autopay rows other parts of servicing read or end: the active authorisation of loans, and
 * stopping it when a return says the account or the authorisation cannot be used again (the returns
 * module) or when the loan can take no more debits. Setting up, changing and cancelling are the
 * borrower's (autopay.server.ts).
 */

export type AutopayRow = typeof autopayAuthorizations.$inferSelect;

/** The active autopay authorisation of each loan that has one (one query). */
export async function activeAutopays(loanIds: readonly string[], db: DbOrTx = getDb()): Promise<Map<string, AutopayRow>> {
  const ids = [...new Set(loanIds)];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select()
    .from(autopayAuthorizations)
    .where(and(inArray(autopayAuthorizations.loanId, ids), eq(autopayAuthorizations.status, "active")));
  return new Map(rows.map((r) => [r.loanId, r]));
}

/** A debit the system queued (an autopay debit or a retry) that is not in a file yet. */
export const unsentSystemDebit = and(
  eq(loanPayments.status, "pending"),
  isNull(loanPayments.achBatchId),
  or(isNotNull(loanPayments.autopayAuthorizationId), isNotNull(loanPayments.retryOf)),
);

export type CancelledDebit = { id: string; amountCents: number; scheduledOn: string | null };

/**
 * Stops a loan's autopay (inside the caller's transaction, the loan locked): the active row becomes
 * stopped with the reason (and the return code that caused it), and its debits not sent yet are
 * cancelled with the same reason. Returns what changed; nothing when autopay was not on.
 */
export async function stopAutopay(
  tx: DbOrTx,
  loanId: string,
  stop: { reason: string; returnCode: string | null; actorId: string | null },
): Promise<{ stopped: AutopayRow | null; cancelled: CancelledDebit[] }> {
  const [stopped] = await tx
    .update(autopayAuthorizations)
    .set({ status: "stopped", endedAt: sql`now()`, endedBy: stop.actorId, endReason: stop.reason, stopReturnCode: stop.returnCode, nextQueueOn: null, updatedAt: sql`now()` })
    .where(and(eq(autopayAuthorizations.loanId, loanId), eq(autopayAuthorizations.status, "active")))
    .returning();
  const cancelled = await tx
    .update(loanPayments)
    .set({ status: "cancelled", cancelReason: stop.reason, cancelledAt: sql`now()`, cancelledBy: stop.actorId })
    .where(and(eq(loanPayments.loanId, loanId), eq(loanPayments.status, "pending"), isNull(loanPayments.achBatchId), isNotNull(loanPayments.autopayAuthorizationId), isNull(loanPayments.retryOf)))
    .returning({ id: loanPayments.id, amountCents: loanPayments.amountCents, scheduledOn: loanPayments.scheduledOn });
  return { stopped: stopped ?? null, cancelled };
}
