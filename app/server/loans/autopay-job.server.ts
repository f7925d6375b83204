import { and, desc, eq, isNotNull, isNull, lt, ne, sql } from "drizzle-orm";
import { autopayDebitDay, autopayQueueDay, queueDayAfter } from "~/domain/autopay";
import { addDays } from "~/domain/dates";
import { maskedAccount } from "~/domain/views/borrower-loan";
import { bankAccountsByIds } from "~/server/applications/index.server";
import { recordEvent } from "~/server/conversation/index.server";
import { writeAudit } from "~/server/platform/audit/audit.server";
import type { Db, DbOrTx } from "~/server/platform/db/client.server";
import { autopayAuthorizations, loanPayments, servicingNotices } from "~/server/platform/db/schema.server";
import { enqueueEmail } from "~/server/platform/mail/outbox.server";
import { autopayAmountEmail, autopayCancelledEmail } from "./autopay-emails.server";
import { installmentsWithAutopayDebit, planAutopayDebit } from "./autopay-plan.server";
import { endAutopayOfClosedLoan } from "./autopay-end.server";
import { stopAutopay, type AutopayRow } from "./autopay-records.server";
import { accountRestrictions, restrictionReason, type AccountRestriction } from "./account-restrictions.server";
import { paymentReference } from "./borrower-payments.server";
import { lockLoan, type LoanRow } from "./ledger.server";
import { loanMailSubject } from "./loan-reference.server";
import { loanOwner } from "./loan-owner.server";

/**
 * The servicing job's autopay step: queues each active authorisation's next debit on its queue day
 * (AUTOPAY_NOTICE_DAYS before the debit day), so it settles on the chosen banking day as a WEB entry
 * with Payment Type Code R. The job reads only the authorisations due (next_queue_on ≤ today, through
 * autopay_authorizations_queue_idx, in keyset batches), never every loan. Each authorisation is one
 * transaction on its loan's locked row (the lock Cancel Autopay and Make a Payment take), re-read
 * under the lock, so a cancel and the queueing leave one outcome; the debit's insert is ON CONFLICT DO
 * NOTHING on the one-autopay-debit-per-installment index, so two instances queue it once.
 * - Skipped: an installment already paid, or one the borrower pays by hand (a one-time debit pending):
 *   never two debits for one installment.
 * - A debit whose amount differs from the previous autopay debit (for the first: from the amount the
 *   authorisation showed, the fixed amount or the regular payment) is told to the borrower at once,
 *   ten days ahead (Reg E 1005.10(d)), claimed once through servicing_notices (kind autopay_amount).
 * - A loan that takes no more debits (paid off, closed, cancelled) ends its autopay (cancelled, no actor);
 *   an account restricted after a return stops it (stopped, with the return code).
 */

export const AUTOPAY_JOB_BATCH_SIZE = 100;

type Due = { id: string; loanId: string; nextQueueOn: string };

async function readDue(db: Db, today: string, after: Due | null, limit: number): Promise<Due[]> {
  // The literal status is the queue index's predicate, so the planner can prove the partial index applies.
  const conditions = [sql`${autopayAuthorizations.status} = 'active'`, sql`${autopayAuthorizations.nextQueueOn} <= ${today}::date`];
  if (after) conditions.push(sql`(${autopayAuthorizations.nextQueueOn}, ${autopayAuthorizations.id}) > (${after.nextQueueOn}::date, ${after.id}::uuid)`);
  const rows = await db
    .select({ id: autopayAuthorizations.id, loanId: autopayAuthorizations.loanId, nextQueueOn: autopayAuthorizations.nextQueueOn })
    .from(autopayAuthorizations)
    .where(and(...conditions))
    .orderBy(autopayAuthorizations.nextQueueOn, autopayAuthorizations.id)
    .limit(limit);
  return rows.map((r) => ({ ...r, nextQueueOn: r.nextQueueOn! }));
}

async function setNextQueueOn(tx: DbOrTx, id: string, day: string | null, today: string): Promise<void> {
  // Never today or earlier once looked at: the authorisation waits for tomorrow's runs at the soonest.
  const next = day === null ? null : day <= today ? addDays(today, 1) : day;
  await tx.update(autopayAuthorizations).set({ nextQueueOn: next, updatedAt: sql`now()` }).where(eq(autopayAuthorizations.id, id));
}

/** Stops autopay whose account a return restricted, with its unsent debits; tells the borrower. */
async function stopForRestriction(tx: DbOrTx, loan: LoanRow, auth: AutopayRow, restriction: AccountRestriction): Promise<void> {
  const reason = restrictionReason(restriction);
  const { stopped, cancelled } = await stopAutopay(tx, loan.id, { reason, returnCode: restriction.returnCode, actorId: null });
  if (!stopped) return;
  await writeAudit(tx, { actor: null, action: "autopay.end", table: "autopay_authorizations", recordId: auth.id, details: { loanId: loan.id, reason, returnCode: restriction.returnCode, cancelled: cancelled.map((c) => c.id) } });
  await recordEvent(tx, { applicationId: loan.applicationId, ownerId: loan.userId, kind: "autopay_off", actorId: null, actorSide: null, summary: `Autopay stopped: ${reason}` });
  const owner = await loanOwner(tx, loan);
  if (owner) await enqueueEmail(tx, { to: owner.email, ...autopayCancelledEmail({ ...loanMailSubject(loan, owner.loanType), reason: `the bank returned a debit from its account (${restriction.returnCode}).`, notes: [] }) });
}

/** Whether a one-time borrower debit (Make a Payment) is pending on the loan: the borrower pays by hand. */
async function handPaymentPending(tx: DbOrTx, loanId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: loanPayments.id })
    .from(loanPayments)
    .where(and(eq(loanPayments.loanId, loanId), eq(loanPayments.status, "pending"), eq(loanPayments.source, "borrower"), isNull(loanPayments.autopayAuthorizationId), isNull(loanPayments.retryOf)))
    .limit(1);
  return row !== undefined;
}

/** The amount the borrower expects: the previous autopay debit's, else what the authorisation showed. */
async function expectedAmount(tx: DbOrTx, loan: LoanRow, auth: AutopayRow, installmentNumber: number): Promise<number> {
  const [previous] = await tx
    .select({ amountCents: loanPayments.amountCents })
    .from(loanPayments)
    .where(and(eq(loanPayments.loanId, loan.id), isNotNull(loanPayments.autopayAuthorizationId), isNull(loanPayments.retryOf), lt(loanPayments.installmentNumber, installmentNumber), ne(loanPayments.status, "cancelled")))
    .orderBy(desc(loanPayments.installmentNumber))
    .limit(1);
  if (previous) return previous.amountCents;
  return auth.amountKind === "fixed" && auth.fixedAmountCents !== null ? auth.fixedAmountCents : loan.paymentCents;
}

/** One authorisation, under its loan's lock; true when a debit was queued. */
async function queueOne(db: Db, due: Due, today: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const loan = await lockLoan(tx, due.loanId);
    if (!loan) return false;
    const [auth] = await tx
      .select()
      .from(autopayAuthorizations)
      .where(and(eq(autopayAuthorizations.id, due.id), eq(autopayAuthorizations.status, "active"), sql`${autopayAuthorizations.nextQueueOn} <= ${today}::date`));
    // Cancelled, changed or already handled by another run while this one waited for the lock.
    if (!auth) return false;
    if (loan.status !== "active" && loan.status !== "approved") {
      await endAutopayOfClosedLoan(tx, loan, auth);
      return false;
    }
    // An account restricted after a return (perhaps on another loan) takes no more debits: autopay stops.
    const restriction = (await accountRestrictions([auth.bankAccountId], tx)).get(auth.bankAccountId);
    if (restriction) {
      await stopForRestriction(tx, loan, auth, restriction);
      return false;
    }
    const taken = await installmentsWithAutopayDebit(tx, loan.id);
    const plan = await planAutopayDebit(tx, loan, auth, today, { taken });
    if (plan.state.status === "paid_in_full" || !plan.target) {
      await setNextQueueOn(tx, auth.id, null, today);
      return false;
    }
    const target = plan.target;
    const queueDay = autopayQueueDay(autopayDebitDay(target.dueDate, auth.daysBeforeDue));
    if (queueDay > today) {
      await setNextQueueOn(tx, auth.id, queueDay, today);
      return false;
    }
    if (await handPaymentPending(tx, loan.id)) {
      // Looked at again tomorrow: once the hand payment settles the installment is paid and skipped.
      await setNextQueueOn(tx, auth.id, addDays(today, 1), today);
      return false;
    }
    const after = queueDayAfter(plan.state.installments, target.number, auth.daysBeforeDue);
    if (!plan.debit) {
      await setNextQueueOn(tx, auth.id, after, today);
      return false;
    }
    const { amountCents, debitDay } = plan.debit;
    const [inserted] = await tx
      .insert(loanPayments)
      .values({
        loanId: loan.id,
        userId: auth.userId,
        amountCents,
        status: "pending",
        method: "ach",
        source: "borrower",
        choice: auth.amountKind === "fixed" ? "amount" : "installment",
        paymentType: "R",
        autopayAuthorizationId: auth.id,
        installmentNumber: target.number,
        scheduledOn: debitDay,
        bankAccountId: auth.bankAccountId,
        authorizationVersion: auth.textVersion,
        authorizedAt: auth.authorizedAt,
        authorizationIp: auth.authorizationIp,
        authorizationUserAgent: auth.authorizationUserAgent,
        reference: paymentReference("AUTO-"),
      })
      .onConflictDoNothing()
      .returning({ id: loanPayments.id });
    await setNextQueueOn(tx, auth.id, after, today);
    if (!inserted) return false;
    await writeAudit(tx, {
      actor: null,
      action: "autopay.queue",
      table: "loan_payments",
      recordId: inserted.id,
      details: { loanId: loan.id, authorizationId: auth.id, installmentNumber: target.number, amountCents, scheduledOn: debitDay },
    });
    const expected = await expectedAmount(tx, loan, auth, target.number);
    if (expected !== amountCents) {
      const claimed = await tx.insert(servicingNotices).values({ loanId: loan.id, kind: "autopay_amount", installmentNumber: target.number }).onConflictDoNothing().returning({ loanId: servicingNotices.loanId });
      const owner = claimed.length > 0 ? await loanOwner(tx, loan) : null;
      if (owner) {
        const account = (await bankAccountsByIds([auth.bankAccountId], tx)).get(auth.bankAccountId);
        await enqueueEmail(tx, {
          to: owner.email,
          ...autopayAmountEmail({ ...loanMailSubject(loan, owner.loanType), amountCents, debitOn: debitDay, installmentNumber: target.number, account: account ? maskedAccount(account.accountType, account.last4) : "your bank account on file" }),
        });
      }
    }
    return true;
  });
}

/** Queues the autopay debits due today; the number queued. */
export async function queueAutopayDebits(db: Db, today: string, _now: Date = new Date(), options: { batchSize?: number; signal?: AbortSignal } = {}): Promise<number> {
  const batchSize = options.batchSize ?? AUTOPAY_JOB_BATCH_SIZE;
  let queued = 0;
  let after: Due | null = null;
  while (!options.signal?.aborted) {
    const batch = await readDue(db, today, after, batchSize);
    for (const due of batch) if (await queueOne(db, due, today)) queued += 1;
    if (batch.length < batchSize) break;
    after = batch.at(-1)!;
  }
  return queued;
}
