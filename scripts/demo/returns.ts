import { and, eq } from "drizzle-orm";
import { todayUtc } from "~/domain/dates";
import type { AuditActor, RequestInfo } from "~/server/platform/audit/audit.server";
import type { Db } from "~/server/platform/db/client.server";
import { approvedLoans, bankAccounts, loanApplications, loanPayments, user as userTable } from "~/server/platform/db/schema.server";
import { createAchBatch, makePayment, returnAchEntry } from "~/server/loans/index.server";

/**
 * Demo data for returned payments: on the given serviced demo loan, the borrower's one-time debit
 * of the next installment (Make a Payment), sent in an ACH file a week ago, returned by the bank the
 * day it was effective with R01 (Insufficient Funds), so its retry is pending for five banking days
 * later: the borrower's Returned Payments and timeline, the e-mail, and the retry waiting on /admin/ach.
 * Everything goes through the product's functions; only the debit's authorisation time is moved back
 * to before the file, as the rest of the demo dates its records. Once per database: a loan with a
 * returned debit is left alone. Returns whether it did anything.
 */
export async function seedDemoReturn(db: Db, actor: AuditActor, request: RequestInfo, applicationKey: string): Promise<boolean> {
  const [loan] = await db
    .select({ id: approvedLoans.id, userId: approvedLoans.userId, applicationId: approvedLoans.applicationId, status: approvedLoans.status })
    .from(approvedLoans)
    .innerJoin(loanApplications, eq(loanApplications.id, approvedLoans.applicationId))
    .where(eq(loanApplications.idempotencyKey, applicationKey))
    .limit(1);
  if (!loan || loan.status !== "active") return false;
  const [already] = await db
    .select({ id: loanPayments.id })
    .from(loanPayments)
    .where(and(eq(loanPayments.loanId, loan.id), eq(loanPayments.status, "returned")))
    .limit(1);
  if (already) return false;
  const [borrower] = await db.select({ id: userTable.id, name: userTable.name, email: userTable.email }).from(userTable).where(eq(userTable.id, loan.userId)).limit(1);
  const [account] = await db.select({ id: bankAccounts.id }).from(bankAccounts).where(eq(bankAccounts.applicationId, loan.applicationId)).limit(1);
  if (!borrower || !account) return false;

  // A week ago: the file is effective within a few banking days, before today, so the return can be recorded.
  const fileAt = new Date(Date.now() - 7 * 86_400_000);
  fileAt.setUTCHours(15, 0, 0, 0);
  const paid = await makePayment(loan.id, { choice: "installment", amountCents: null, bankAccountId: account.id }, { actor: { ...borrower, isStaff: false }, request }, db, todayUtc(fileAt));
  const authorizedAt = new Date(fileAt.getTime() - 3_600_000);
  await db.update(loanPayments).set({ authorizedAt, createdAt: authorizedAt }).where(eq(loanPayments.id, paid.paymentId));
  const batch = await createAchBatch({ actor, request }, db, fileAt);
  if (!batch.ok) return false;
  const [sent] = await db.select({ batchId: loanPayments.achBatchId }).from(loanPayments).where(eq(loanPayments.id, paid.paymentId));
  if (sent?.batchId !== batch.batchId) return false;
  await returnAchEntry(paid.paymentId, "R01", batch.effectiveDate, { actor, request }, db);
  return true;
}
