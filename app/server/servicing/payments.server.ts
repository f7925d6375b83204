import { and, eq, sql } from "drizzle-orm";
import type { LedgerState } from "~/domain/loan-servicing";
import type { PaymentMethod } from "~/domain/servicing-enums";
import { writeAudit, type AuditActor, type RequestInfo } from "~/server/audit.server";
import { getConfig } from "~/server/config.server";
import { todayUtc } from "~/server/conversation/requests.server";
import { getDb, type Db, type DbOrTx } from "~/server/db/client.server";
import { loanApplications, loanPayments, user as userTable } from "~/server/db/schema.server";
import { enqueueEmail } from "~/server/mail/outbox.server";
import { paidInFullEmail } from "~/server/mail/servicing-emails.server";
import { lockLoan, refreshLoan, type LoanRow } from "./ledger.server";

/**
 * Posting to a loan's ledger (issue 21): Record Payment (staff), Reverse Payment, and settling or
 * returning a borrower's pending ACH debit. Each is one transaction that first locks the loan's row
 * (so changes to one ledger are serialised), changes the payment with a conditional statement, then
 * re-derives the loan's summary from the replayed ledger (refreshLoan), writes the audit row, and,
 * when a payment paid the loan off, queues the paid-in-full e-mail. A reference is posted once per
 * loan (the unique key loan_payments_loan_id_reference_key decides, also between two staff at once).
 */

export class ServicingRefused extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
  ) {
    super(message);
    this.name = "ServicingRefused";
  }
}

export const SERVICING_MESSAGES = {
  loanNotFound: "This loan does not exist.",
  paymentNotFound: "This payment does not exist.",
  notActive: "This loan is paid in full: it takes no more payments.",
  duplicateReference: "This reference has already been posted on this loan.",
  notPosted: "Only a posted payment can be reversed; this one was already reversed, returned or is still pending.",
  notPending: "Only a pending payment can be settled or returned; this one was already settled, returned or reversed.",
  receivedInFuture: "The received date cannot be in the future.",
  receivedBeforeStart: "The received date cannot be before the loan started.",
} as const;

export type RecordPaymentInput = { amountCents: number; receivedOn: string; method: PaymentMethod; reference: string };

export type PostingResult = { paymentId: string; state: LedgerState; paidInFull: boolean };

function checkReceivedOn(loan: LoanRow, receivedOn: string, today: string): void {
  if (receivedOn > today) throw new ServicingRefused(400, SERVICING_MESSAGES.receivedInFuture);
  if (receivedOn < loan.startDate) throw new ServicingRefused(400, SERVICING_MESSAGES.receivedBeforeStart);
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } };
  return e?.code === "23505" || e?.cause?.code === "23505";
}

async function afterPosting(tx: DbOrTx, loan: LoanRow, wasPaidOff: boolean, today: string): Promise<{ state: LedgerState; paidInFull: boolean }> {
  const state = await refreshLoan(tx, loan, today);
  const paidInFull = state.status === "paid_in_full" && !wasPaidOff;
  if (paidInFull) {
    const [owner] = await tx
      .select({ email: userTable.email, loanType: loanApplications.loanType })
      .from(userTable)
      .innerJoin(loanApplications, eq(loanApplications.id, loan.applicationId))
      .where(eq(userTable.id, loan.userId))
      .limit(1);
    if (owner) await enqueueEmail(tx, { to: owner.email, ...paidInFullEmail({ loanId: loan.id, loanType: owner.loanType, baseUrl: getConfig().publicUrl }) });
  }
  return { state, paidInFull };
}

/** Record Payment: a payment staff received (ACH, wire or check), posted at once. */
export async function recordPayment(loanId: string, input: RecordPaymentInput, actor: AuditActor, request: RequestInfo = {}, db: Db = getDb(), today: string = todayUtc()): Promise<PostingResult> {
  try {
    return await db.transaction(async (tx) => {
      const loan = await lockLoan(tx, loanId);
      if (!loan) throw new ServicingRefused(404, SERVICING_MESSAGES.loanNotFound);
      if (loan.status === "paid_off") throw new ServicingRefused(409, SERVICING_MESSAGES.notActive);
      checkReceivedOn(loan, input.receivedOn, today);
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
        })
        .returning({ id: loanPayments.id });
      const { state, paidInFull } = await afterPosting(tx, loan, false, today);
      const allocation = state.allocations.find((a) => a.paymentId === payment!.id);
      await writeAudit(tx, {
        actor,
        action: "payment.post",
        table: "loan_payments",
        recordId: payment!.id,
        details: { loanId, amountCents: input.amountCents, receivedOn: input.receivedOn, method: input.method, reference: input.reference, allocation, paidInFull },
        request,
      });
      return { paymentId: payment!.id, state, paidInFull };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ServicingRefused(409, SERVICING_MESSAGES.duplicateReference);
    throw error;
  }
}

/** Reverse Payment (returned / NSF): the payment leaves the ledger and every later one is re-allocated. */
export async function reversePayment(paymentId: string, reason: string, actor: AuditActor, request: RequestInfo = {}, db: Db = getDb(), today: string = todayUtc()): Promise<PostingResult> {
  return db.transaction(async (tx) => {
    const [target] = await tx.select({ loanId: loanPayments.loanId }).from(loanPayments).where(eq(loanPayments.id, paymentId)).limit(1);
    if (!target) throw new ServicingRefused(404, SERVICING_MESSAGES.paymentNotFound);
    const loan = (await lockLoan(tx, target.loanId))!;
    const [reversed] = await tx
      .update(loanPayments)
      .set({ status: "reversed", reversalReason: reason, reversedAt: sql`now()`, reversedBy: actor.id })
      .where(and(eq(loanPayments.id, paymentId), eq(loanPayments.status, "posted")))
      .returning({ id: loanPayments.id, amountCents: loanPayments.amountCents });
    if (!reversed) throw new ServicingRefused(409, SERVICING_MESSAGES.notPosted);
    const state = await refreshLoan(tx, loan, today);
    await writeAudit(tx, { actor, action: "payment.reverse", table: "loan_payments", recordId: paymentId, details: { loanId: loan.id, amountCents: reversed.amountCents, reason }, request });
    return { paymentId, state, paidInFull: false };
  });
}

/** A pending borrower debit settled: posted with the settlement date as its received date. */
export async function settlePayment(paymentId: string, receivedOn: string, actor: AuditActor, request: RequestInfo = {}, db: Db = getDb(), today: string = todayUtc()): Promise<PostingResult> {
  return db.transaction(async (tx) => {
    const [target] = await tx.select({ loanId: loanPayments.loanId }).from(loanPayments).where(eq(loanPayments.id, paymentId)).limit(1);
    if (!target) throw new ServicingRefused(404, SERVICING_MESSAGES.paymentNotFound);
    const loan = (await lockLoan(tx, target.loanId))!;
    checkReceivedOn(loan, receivedOn, today);
    const wasPaidOff = loan.status === "paid_off";
    const [settled] = await tx
      .update(loanPayments)
      .set({ status: "posted", receivedOn, postedAt: sql`now()`, postedBy: actor.id })
      .where(and(eq(loanPayments.id, paymentId), eq(loanPayments.status, "pending")))
      .returning({ id: loanPayments.id, amountCents: loanPayments.amountCents });
    if (!settled) throw new ServicingRefused(409, SERVICING_MESSAGES.notPending);
    const { state, paidInFull } = await afterPosting(tx, loan, wasPaidOff, today);
    await writeAudit(tx, { actor, action: "payment.settle", table: "loan_payments", recordId: paymentId, details: { loanId: loan.id, amountCents: settled.amountCents, receivedOn, paidInFull }, request });
    return { paymentId, state, paidInFull };
  });
}

/** A pending borrower debit returned by the bank (NACHA return code): it never reaches the ledger. */
export async function returnPayment(paymentId: string, returnCode: string, actor: AuditActor, request: RequestInfo = {}, db: Db = getDb()): Promise<void> {
  await db.transaction(async (tx) => {
    const [returned] = await tx
      .update(loanPayments)
      .set({ status: "returned", returnCode })
      .where(and(eq(loanPayments.id, paymentId), eq(loanPayments.status, "pending")))
      .returning({ id: loanPayments.id, loanId: loanPayments.loanId, amountCents: loanPayments.amountCents });
    if (!returned) {
      const [exists] = await tx.select({ id: loanPayments.id }).from(loanPayments).where(eq(loanPayments.id, paymentId)).limit(1);
      throw new ServicingRefused(exists ? 409 : 404, exists ? SERVICING_MESSAGES.notPending : SERVICING_MESSAGES.paymentNotFound);
    }
    await writeAudit(tx, { actor, action: "payment.return", table: "loan_payments", recordId: paymentId, details: { loanId: returned.loanId, amountCents: returned.amountCents, returnCode }, request });
  });
}
