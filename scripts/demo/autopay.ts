import { and, asc, eq } from "drizzle-orm";
import { todayUtc } from "~/domain/dates";
import type { AuditActor, RequestInfo } from "~/server/platform/audit/audit.server";
import type { Db } from "~/server/platform/db/client.server";
import { approvedLoans, autopayAuthorizations, user as userTable } from "~/server/platform/db/schema.server";
import { currentPaymentAccount, loadLedger, queueAutopayDebits, setUpAutopay } from "~/server/loans/index.server";

/**
 * Demo data: one serviced demo loan that is current gets autopay, set up the way the borrower sets it
 * up (setUpAutopay with the borrower as the caller, the installment due on its due date, from the
 * loan's payment account), and its next debit queued as the servicing job queues it on its queue day.
 * Returns the audit rows written (0 when no loan fits or one already has autopay).
 */
export async function seedDemoAutopay(db: Db, request: RequestInfo): Promise<number> {
  const today = todayUtc();
  const loans = await db.select().from(approvedLoans).where(eq(approvedLoans.status, "active")).orderBy(asc(approvedLoans.approvalDate));
  for (const loan of loans) {
    const ledger = await loadLedger(loan.id, db, today);
    if (ledger?.state.status !== "current") continue;
    const [existing] = await db.select({ id: autopayAuthorizations.id }).from(autopayAuthorizations).where(and(eq(autopayAuthorizations.loanId, loan.id))).limit(1);
    if (existing) return 0;
    const account = await currentPaymentAccount(loan, db);
    const [borrower] = await db.select({ id: userTable.id, name: userTable.name, email: userTable.email }).from(userTable).where(eq(userTable.id, loan.userId));
    if (!account || !borrower) continue;
    const viewer: AuditActor & { isStaff: boolean } = { ...borrower, isStaff: false };
    await setUpAutopay(loan.id, { bankAccountId: account.bankAccountId, amountKind: "installment", fixedAmountCents: null, daysBeforeDue: 0 }, { actor: viewer, request }, db, today);
    // The job queues a debit ten days before its day; the demo runs it for that day now, so the page
    // shows the queued debit under Upcoming debits.
    const [auth] = await db.select({ nextQueueOn: autopayAuthorizations.nextQueueOn }).from(autopayAuthorizations).where(and(eq(autopayAuthorizations.loanId, loan.id), eq(autopayAuthorizations.status, "active")));
    const queued = auth?.nextQueueOn ? await queueAutopayDebits(db, auth.nextQueueOn) : 0;
    return 1 + queued;
  }
  return 0;
}
