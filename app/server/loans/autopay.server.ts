import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { canStopAutopayDebit, firstQueueDay, queueDayAfter } from "~/domain/autopay";
import { AUTOPAY_AUTHORIZATION_STATEMENT, AUTOPAY_AUTHORIZATION_VERSION, autopayAmountPhrase, autopayAuthorizationText, autopayTimingPhrase } from "~/domain/autopay-authorization";
import { nextBankingDay } from "~/domain/banking-days";
import { todayUtc } from "~/domain/dates";
import { formatMoney } from "~/domain/money";
import { formatAgreementDay } from "~/domain/views/agreement-preview";
import { AUTOPAY_MESSAGES, type AutopayTerms } from "~/domain/validation/autopay";
import { isValidated } from "~/domain/views/account-validation";
import { maskedAccount } from "~/domain/views/borrower-loan";
import { bankAccountsByIds, ownBankAccountIdSql } from "~/server/applications/index.server";
import { recordEvent } from "~/server/conversation/index.server";
import { agreementLender } from "~/server/offers/index.server";
import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";
import { getDb, type Db, type DbOrTx } from "~/server/platform/db/client.server";
import { autopayAuthorizations, loanPayments } from "~/server/platform/db/schema.server";
import { AppError } from "~/server/platform/http/app-error.server";
import { enqueueEmail } from "~/server/platform/mail/outbox.server";
import { accountRestrictions, restrictionReason } from "./account-restrictions.server";
import { accountValidations } from "./account-validations.server";
import { autopayAuthorizedEmail, autopayCancelledEmail, debitStoppedSentence, stillGoingSentence } from "./autopay-emails.server";
import { activeAutopays, type AutopayRow } from "./autopay-records.server";
import { installmentsWithAutopayDebit, planAutopayDebit, type AutopayTermsRow } from "./autopay-plan.server";
import { onOwnLockedLoan, type LoanViewer } from "./borrower-loan.server";
import type { LoanRow } from "./ledger.server";
import { loanMailSubject } from "./loan-reference.server";
import { loanOwner } from "./loan-owner.server";

/**
 * Set Up, Change and Cancel Autopay: the borrower's recurring-debit authorisation (Reg E 12 CFR
 * 1005.10(b)). Each is one transaction on the loan's locked row (onOwnLockedLoan), so it and the
 * servicing job's queueing of a debit (which takes the same lock) leave one outcome.
 * - Only a loan being serviced takes autopay (not one awaiting funding, paid off, closed or cancelled).
 * - The account is the borrower's own, validated and not restricted after a return; a fixed amount is
 *   at least the regular payment.
 * - Set Up inserts against the one-active unique index (ON CONFLICT DO NOTHING): two at once make one.
 * - Change ends the active row as 'replaced' and writes a new one with a new authorisation; Cancel ends
 *   it as 'cancelled'. A queued debit not in a file and before its cutoff (three banking days before its
 *   day) is re-made under the new terms (Change) or cancelled (Cancel); one past its cutoff or in a file
 *   still goes, and the answer says which.
 * Audited (autopay.authorize / change / cancel), on the loan's timeline (visible to the borrower), and
 * e-mailed: a copy of the authorisation's text, or the confirmation that autopay is off.
 */

export type AutopayDebitNote = { paymentId: string; amountCents: number; on: string };

export type AutopayResult = {
  authorizationId: string | null;
  /** The next debit as planned today (null: none due yet, e.g. the next installment is already queued). */
  next: { installmentNumber: number; on: string; amountCents: number } | null;
  /** Queued debits that were past their cutoff or in a file: they will still be made. */
  stillGoing: AutopayDebitNote[];
  /** Queued debits this stopped. */
  stopped: AutopayDebitNote[];
  /** "Checking ••••1234". */
  account: string | null;
  /** The sentences the answer and the e-mail give about those debits. */
  notes: string[];
};

/** A loan being serviced: funded, not paid off, closed or cancelled. */
function refuseUnlessServiced(loan: LoanRow): void {
  if (loan.status !== "active" && loan.status !== "approved") throw new AppError("servicing", 409, AUTOPAY_MESSAGES.notActive);
}

/** The account as autopay may use it: the borrower's own, validated, not restricted; its masked label. */
async function usableAccount(tx: DbOrTx, bankAccountId: string, userId: string): Promise<string> {
  const own = (await tx.execute(ownBankAccountIdSql(bankAccountId, userId))) as unknown as { rows: { id: string }[] };
  if (!own.rows[0]) throw new AppError("servicing", 400, AUTOPAY_MESSAGES.bankAccountUnknown);
  const [validations, restrictions, records] = await Promise.all([accountValidations([bankAccountId], tx), accountRestrictions([bankAccountId], tx), bankAccountsByIds([bankAccountId], tx)]);
  const restriction = restrictions.get(bankAccountId);
  if (restriction) throw new AppError("servicing", 409, restrictionReason(restriction));
  if (!isValidated(validations.get(bankAccountId))) throw new AppError("servicing", 409, AUTOPAY_MESSAGES.notValidated);
  const record = records.get(bankAccountId)!;
  return maskedAccount(record.accountType, record.last4);
}

function checkFixedAmount(loan: LoanRow, input: AutopayTerms): void {
  if (input.amountKind === "fixed" && (input.fixedAmountCents === null || input.fixedAmountCents < loan.paymentCents))
    throw new AppError("servicing", 400, `${AUTOPAY_MESSAGES.amountBelowInstallment} It is ${formatMoney(loan.paymentCents)}.`);
}

/** The authorisation's paragraphs for these terms and this account. */
export function autopayTextFor(terms: AutopayTermsRow, account: string): string[] {
  return autopayAuthorizationText({
    lender: agreementLender().name,
    amount: autopayAmountPhrase(terms.amountKind === "fixed" && terms.fixedAmountCents !== null ? formatMoney(terms.fixedAmountCents) : null),
    timing: autopayTimingPhrase(terms.daysBeforeDue),
    account,
  });
}

type QueuedDebit = { id: string; amountCents: number; scheduledOn: string | null; achBatchId: string | null; installmentNumber: number | null; createdAt: Date };

/** The loan's autopay debits that are still pending (not retries: a retry follows its own rules). */
async function queuedAutopayDebits(tx: DbOrTx, loanId: string): Promise<QueuedDebit[]> {
  return tx
    .select({ id: loanPayments.id, amountCents: loanPayments.amountCents, scheduledOn: loanPayments.scheduledOn, achBatchId: loanPayments.achBatchId, installmentNumber: loanPayments.installmentNumber, createdAt: loanPayments.createdAt })
    .from(loanPayments)
    .where(and(eq(loanPayments.loanId, loanId), eq(loanPayments.status, "pending"), isNotNull(loanPayments.autopayAuthorizationId), isNull(loanPayments.retryOf)));
}

const dayOf = (d: QueuedDebit) => d.scheduledOn ?? d.createdAt.toISOString().slice(0, 10);

/** Cancels a pending, unsent debit (conditional: one in a file by now is left alone); true when it did. */
async function cancelDebit(tx: DbOrTx, paymentId: string, reason: string, actorId: string | null): Promise<boolean> {
  const rows = await tx
    .update(loanPayments)
    .set({ status: "cancelled", cancelReason: reason, cancelledAt: sql`now()`, cancelledBy: actorId })
    .where(and(eq(loanPayments.id, paymentId), eq(loanPayments.status, "pending"), isNull(loanPayments.achBatchId)))
    .returning({ id: loanPayments.id });
  return rows.length > 0;
}

async function lastFourLabel(tx: DbOrTx, bankAccountId: string): Promise<string> {
  const record = (await bankAccountsByIds([bankAccountId], tx)).get(bankAccountId);
  return record ? maskedAccount(record.accountType, record.last4) : "your bank account";
}

/** Writes a new active authorisation (null when another is active: the one-active index). */
async function insertAuthorization(
  tx: DbOrTx,
  loan: LoanRow,
  input: AutopayTerms,
  { actor, request }: Caller<LoanViewer>,
  nextQueueOn: string | null,
): Promise<AutopayRow | null> {
  const [row] = await tx
    .insert(autopayAuthorizations)
    .values({
      loanId: loan.id,
      userId: actor.id,
      bankAccountId: input.bankAccountId,
      amountKind: input.amountKind,
      fixedAmountCents: input.amountKind === "fixed" ? input.fixedAmountCents : null,
      daysBeforeDue: input.daysBeforeDue,
      textVersion: AUTOPAY_AUTHORIZATION_VERSION,
      authorizationIp: request.ip ?? null,
      authorizationUserAgent: request.userAgent?.slice(0, 512) ?? null,
      nextQueueOn,
    })
    .onConflictDoNothing()
    .returning();
  return row ?? null;
}

async function mailCopy(tx: DbOrTx, loan: LoanRow, row: AutopayRow, account: string, changed: boolean, notes: string[]): Promise<void> {
  const owner = await loanOwner(tx, loan);
  if (!owner) return;
  await enqueueEmail(tx, {
    to: owner.email,
    ...autopayAuthorizedEmail({
      ...loanMailSubject(loan, owner.loanType),
      changed,
      paragraphs: autopayTextFor(row, account),
      statement: AUTOPAY_AUTHORIZATION_STATEMENT,
      version: row.textVersion,
      authorizedAt: `${row.authorizedAt.toISOString().slice(0, 16).replace("T", " ")} UTC`,
      notes,
    }),
  });
}

function nextOf(plan: Awaited<ReturnType<typeof planAutopayDebit>>): AutopayResult["next"] {
  return plan.debit ? { installmentNumber: plan.debit.installment.number, on: plan.debit.debitDay, amountCents: plan.debit.amountCents } : null;
}

export async function setUpAutopay(loanId: unknown, input: AutopayTerms, caller: Caller<LoanViewer>, db: Db = getDb(), today: string = todayUtc()): Promise<AutopayResult> {
  return onOwnLockedLoan(loanId, caller.actor, db, AUTOPAY_MESSAGES.notFound, async (tx, loan) => {
    refuseUnlessServiced(loan);
    const account = await usableAccount(tx, input.bankAccountId, caller.actor.id);
    checkFixedAmount(loan, input);
    const taken = await installmentsWithAutopayDebit(tx, loan.id);
    const plan = await planAutopayDebit(tx, loan, input, today, { taken });
    if (!plan.target) throw new AppError("servicing", 409, AUTOPAY_MESSAGES.nothingLeft);
    const row = await insertAuthorization(tx, loan, input, caller, firstQueueDay(plan.state.installments, input.daysBeforeDue, today, taken));
    if (!row) throw new AppError("servicing", 409, AUTOPAY_MESSAGES.alreadyOn);
    await writeAudit(tx, {
      actor: caller.actor,
      action: "autopay.authorize",
      table: "autopay_authorizations",
      recordId: row.id,
      details: { loanId: loan.id, bankAccountId: row.bankAccountId, amountKind: row.amountKind, fixedAmountCents: row.fixedAmountCents, daysBeforeDue: row.daysBeforeDue, textVersion: row.textVersion, nextQueueOn: row.nextQueueOn },
      request: caller.request,
    });
    const next = nextOf(plan);
    await recordEvent(tx, {
      applicationId: loan.applicationId,
      ownerId: loan.userId,
      kind: "autopay_on",
      actorId: caller.actor.id,
      actorSide: "applicant",
      summary: next ? `Autopay set up from ${account}; the first debit is planned for ${formatAgreementDay(next.on)}.` : `Autopay set up from ${account}.`,
    });
    await mailCopy(tx, loan, row, account, false, []);
    return { authorizationId: row.id, next, stillGoing: [], stopped: [], account, notes: [] };
  });
}

/** Ends the active row (replaced or cancelled) under the lock; null when autopay was not on. */
async function endActive(tx: DbOrTx, loanId: string, status: "replaced" | "cancelled", actorId: string | null, reason: string): Promise<AutopayRow | null> {
  const [row] = await tx
    .update(autopayAuthorizations)
    .set({ status, endedAt: sql`now()`, endedBy: actorId, endReason: reason, nextQueueOn: null, updatedAt: sql`now()` })
    .where(and(eq(autopayAuthorizations.loanId, loanId), eq(autopayAuthorizations.status, "active")))
    .returning();
  return row ?? null;
}

export async function changeAutopay(loanId: unknown, input: AutopayTerms, caller: Caller<LoanViewer>, db: Db = getDb(), today: string = todayUtc()): Promise<AutopayResult> {
  return onOwnLockedLoan(loanId, caller.actor, db, AUTOPAY_MESSAGES.notFound, async (tx, loan) => {
    refuseUnlessServiced(loan);
    const active = (await activeAutopays([loan.id], tx)).get(loan.id);
    if (!active) throw new AppError("servicing", 409, AUTOPAY_MESSAGES.notOn);
    const account = await usableAccount(tx, input.bankAccountId, caller.actor.id);
    checkFixedAmount(loan, input);
    const oldAccount = await lastFourLabel(tx, active.bankAccountId);
    await endActive(tx, loan.id, "replaced", caller.actor.id, "Changed by the borrower");
    const row = await insertAuthorization(tx, loan, input, caller, null);
    if (!row) throw new AppError("servicing", 409, AUTOPAY_MESSAGES.alreadyOn);

    // A queued debit still stoppable is re-made under the new authorisation (its installment keeps its
    // one autopay debit); one past its cutoff or in a file goes as it is.
    const stillGoing: AutopayDebitNote[] = [];
    const stopped: AutopayDebitNote[] = [];
    const notes: string[] = [];
    let handled: number | null = null;
    for (const debit of await queuedAutopayDebits(tx, loan.id)) {
      const note = { paymentId: debit.id, amountCents: debit.amountCents, on: dayOf(debit) };
      if (!canStopAutopayDebit(note.on, today, debit.achBatchId !== null) || debit.installmentNumber === null) {
        stillGoing.push(note);
        notes.push(stillGoingSentence(note, oldAccount));
        handled = Math.max(handled ?? 0, debit.installmentNumber ?? 0);
        continue;
      }
      const plan = await planAutopayDebit(tx, loan, input, today, { target: debit.installmentNumber, exceptPaymentId: debit.id });
      if (plan.debit && plan.debit.debitDay >= nextBankingDay(today)) {
        const remade = await tx
          .update(loanPayments)
          .set({
            amountCents: plan.debit.amountCents,
            bankAccountId: row.bankAccountId,
            scheduledOn: plan.debit.debitDay,
            autopayAuthorizationId: row.id,
            choice: row.amountKind === "fixed" ? "amount" : "installment",
            authorizationVersion: row.textVersion,
            authorizedAt: row.authorizedAt,
            authorizationIp: row.authorizationIp,
            authorizationUserAgent: row.authorizationUserAgent,
          })
          .where(and(eq(loanPayments.id, debit.id), eq(loanPayments.status, "pending"), isNull(loanPayments.achBatchId)))
          .returning({ id: loanPayments.id });
        if (remade.length > 0) {
          handled = Math.max(handled ?? 0, debit.installmentNumber);
          notes.push(`The autopay debit for installment #${debit.installmentNumber} is now ${formatMoney(plan.debit.amountCents)} on ${formatAgreementDay(plan.debit.debitDay)} from ${account}.`);
          continue;
        }
      }
      if (await cancelDebit(tx, debit.id, "Autopay changed", caller.actor.id)) {
        stopped.push(note);
        notes.push(debitStoppedSentence(note));
      }
    }
    const taken = await installmentsWithAutopayDebit(tx, loan.id);
    const plan = await planAutopayDebit(tx, loan, input, today, { taken });
    const nextQueueOn = handled !== null ? queueDayAfter(plan.state.installments, handled, input.daysBeforeDue) : firstQueueDay(plan.state.installments, input.daysBeforeDue, today, taken);
    await tx.update(autopayAuthorizations).set({ nextQueueOn: nextQueueOn !== null && nextQueueOn < today ? today : nextQueueOn }).where(eq(autopayAuthorizations.id, row.id));
    await writeAudit(tx, {
      actor: caller.actor,
      action: "autopay.change",
      table: "autopay_authorizations",
      recordId: row.id,
      details: { loanId: loan.id, replaced: active.id, bankAccountId: row.bankAccountId, amountKind: row.amountKind, fixedAmountCents: row.fixedAmountCents, daysBeforeDue: row.daysBeforeDue, textVersion: row.textVersion, stopped: stopped.map((d) => d.paymentId), stillGoing: stillGoing.map((d) => d.paymentId) },
      request: caller.request,
    });
    await recordEvent(tx, { applicationId: loan.applicationId, ownerId: loan.userId, kind: "autopay_changed", actorId: caller.actor.id, actorSide: "applicant", summary: `Autopay changed: debits from ${account}.` });
    await mailCopy(tx, loan, row, account, true, notes);
    return { authorizationId: row.id, next: nextOf(plan), stillGoing, stopped, account, notes };
  });
}

export async function cancelAutopay(loanId: unknown, caller: Caller<LoanViewer>, db: Db = getDb(), today: string = todayUtc()): Promise<AutopayResult> {
  return onOwnLockedLoan(loanId, caller.actor, db, AUTOPAY_MESSAGES.notFound, async (tx, loan) => {
    const ended = await endActive(tx, loan.id, "cancelled", caller.actor.id, "Cancelled by the borrower");
    if (!ended) throw new AppError("servicing", 409, AUTOPAY_MESSAGES.notOn);
    const account = await lastFourLabel(tx, ended.bankAccountId);
    const stillGoing: AutopayDebitNote[] = [];
    const stopped: AutopayDebitNote[] = [];
    const notes: string[] = [];
    for (const debit of await queuedAutopayDebits(tx, loan.id)) {
      const note = { paymentId: debit.id, amountCents: debit.amountCents, on: dayOf(debit) };
      if (canStopAutopayDebit(note.on, today, debit.achBatchId !== null) && (await cancelDebit(tx, debit.id, "Autopay cancelled", caller.actor.id))) {
        stopped.push(note);
        notes.push(debitStoppedSentence(note));
      } else {
        stillGoing.push(note);
        notes.push(stillGoingSentence(note, account));
      }
    }
    await writeAudit(tx, {
      actor: caller.actor,
      action: "autopay.cancel",
      table: "autopay_authorizations",
      recordId: ended.id,
      details: { loanId: loan.id, stopped: stopped.map((d) => d.paymentId), stillGoing: stillGoing.map((d) => d.paymentId) },
      request: caller.request,
    });
    await recordEvent(tx, { applicationId: loan.applicationId, ownerId: loan.userId, kind: "autopay_off", actorId: caller.actor.id, actorSide: "applicant", summary: "Autopay cancelled by the borrower." });
    const owner = await loanOwner(tx, loan);
    if (owner) await enqueueEmail(tx, { to: owner.email, ...autopayCancelledEmail({ ...loanMailSubject(loan, owner.loanType), reason: "you cancelled it.", notes }) });
    return { authorizationId: ended.id, next: null, stillGoing, stopped, account, notes };
  });
}
