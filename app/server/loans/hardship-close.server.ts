import { and, eq, ne, sql } from "drizzle-orm";
import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";
import type { DbOrTx } from "~/server/platform/db/client.server";
import { hardshipRequests, loanModifications } from "~/server/platform/db/schema.server";

/** Why the request closed, as the borrower reads it on the loan page. */
export const HARDSHIP_CLOSED_NOTES = {
  paid_in_full: "Your loan is paid in full.",
  settled: "Your loan was settled.",
} as const;

export type LoanClosedReason = keyof typeof HARDSHIP_CLOSED_NOTES;

/**
 * A loan that owes nothing more needs no help with payments: where the loan closes (the payoff's
 * posting, the settlement; loan locked), the plan offered on it is withdrawn and the request in
 * progress is closed with the reason, both audited (recorded as staff's only for a settlement). Without
 * this the request stayed open on a closed loan until staff closed it by hand, and an offer stayed on
 * the borrower's page that could never be signed.
 */
export async function closeHardshipOnLoanClosed(tx: DbOrTx, loanId: string, reason: LoanClosedReason, caller: Partial<Caller> = {}): Promise<{ withdrawn: number; closed: number }> {
  // A settlement is staff's decision; a payoff is the payment's, whoever posted it.
  const actorId = reason === "settled" ? (caller.actor?.id ?? null) : null;
  const withdrawn = await tx
    .update(loanModifications)
    .set({ status: "withdrawn", endedAt: sql`now()`, endedBy: actorId, updatedAt: sql`now()` })
    .where(and(eq(loanModifications.loanId, loanId), eq(loanModifications.status, "offered")))
    .returning({ id: loanModifications.id });
  for (const row of withdrawn) {
    await writeAudit(tx, { actor: caller.actor ?? null, action: "plan.withdraw", table: "loan_modifications", recordId: row.id, details: { loanId, reason }, request: caller.request });
  }
  const closed = await tx
    .update(hardshipRequests)
    .set({ status: "closed", closedAt: sql`now()`, closedBy: actorId, closeNote: HARDSHIP_CLOSED_NOTES[reason], updatedAt: sql`now()` })
    .where(and(eq(hardshipRequests.loanId, loanId), ne(hardshipRequests.status, "closed")))
    .returning({ id: hardshipRequests.id });
  for (const row of closed) {
    await writeAudit(tx, { actor: caller.actor ?? null, action: "hardship.close", table: "hardship_requests", recordId: row.id, details: { loanId, reason }, request: caller.request });
  }
  return { withdrawn: withdrawn.length, closed: closed.length };
}
