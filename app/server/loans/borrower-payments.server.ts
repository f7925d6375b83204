import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { loanMailSubject } from "./loan-reference.server";
import { errorToast, type Toast } from "~/domain/action-result";
import { ACH_AUTHORIZATION_VERSION } from "~/domain/ach-authorization";
import { payoffQuote, replayLedger } from "~/domain/loan-servicing";
import type { PaymentChoice } from "~/domain/servicing-enums";
import { issuesToFieldErrors } from "~/domain/validation/field-errors";
import { MAKE_PAYMENT_MESSAGES, makePaymentSchema, type MakePaymentActionData } from "~/domain/validation/make-payment";
import { CHANGE_ACCOUNT_INTENT } from "~/domain/validation/payment-account";

import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";

import { todayUtc } from "~/domain/dates";
import { getDb, type Db } from "~/server/platform/db/client.server";
import { loanPayments } from "~/server/platform/db/schema.server";
import { ownBankAccountIdSql } from "~/server/applications/index.server";
import { readActionForm, type ServiceAnswer } from "~/server/platform/http/action-answer.server";
import { logFailure } from "~/server/platform/log/describe-error.server";
import { enqueueEmail } from "~/server/platform/mail/outbox.server";
import { paymentAuthorizedEmail } from "~/server/loans/payment-authorized-email.server";
import { formatMoney } from "~/domain/money";
import { unfundedPaymentRefusal } from "~/domain/funding-checklist";
import { onOwnLockedLoan, ownLoanId, type LoanViewer } from "./borrower-loan.server";
import { ledgerRows, termsOf } from "./ledger.server";
import { loanOwner } from "./loan-owner.server";
import { changePaymentAccountAnswer, type PaymentAccountAnswer } from "./payment-accounts.server";
import { AppError } from "~/server/platform/http/app-error.server";
import { accountRestrictions, restrictionReason } from "./account-restrictions.server";
import { unsentSystemDebit } from "./autopay-records.server";
import { autopayAnswer, type AutopayAnswer } from "./autopay-action.server";
import { AUTOPAY_INTENTS } from "~/domain/validation/autopay";

/**
 * Make a Payment: the borrower authorises a one-time ACH debit from a bank account on file.
 * One transaction: lock the loan's row (lockLoan), work out the amount from the ledger (the next
 * installment, the payoff today, or the borrower's amount, refused above the payoff), then one
 * INSERT … SELECT … WHERE NOT EXISTS that creates the Pending payment only when the bank account is
 * the borrower's and no other borrower payment on this loan is pending: one at a time, also for two
 * requests at once (the row lock serialises them, the statement decides). The authorisation's version,
 * time, IP address and browser are stored with it; 'payment.authorize' is audited and the
 * confirmation e-mail (no account numbers) goes through the outbox in the same transaction.
 */

export type MakePaymentInput = { choice: PaymentChoice; amountCents: number | null; bankAccountId: string };

export type MakePaymentResult = { paymentId: string; amountCents: number; reference: string; onOrAfter: string; replacedDebitIds: string[] };

/** Why a queued autopay or retry debit was cancelled when the borrower paid by hand. */
export const PAID_BY_HAND = "Paid by hand";

/** "WEB-" (or `prefix`: "AUTO-" for an autopay debit) and eight characters from an alphabet without look-alikes. */
export function paymentReference(prefix: "WEB-" | "AUTO-" = "WEB-"): string {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  const bytes = randomBytes(8);
  let out = prefix;
  for (const b of bytes) out += alphabet[b % alphabet.length];
  return out;
}

export async function makePayment(
  loanId: unknown,
  input: MakePaymentInput,
  { actor: viewer, request }: Caller<LoanViewer>,
  db: Db = getDb(),
  today: string = todayUtc(),
): Promise<MakePaymentResult> {
  return onOwnLockedLoan(loanId, viewer, db, MAKE_PAYMENT_MESSAGES.notFound, async (tx, loan) => {
    if (loan.status === "paid_off") throw new AppError("servicing", 409, MAKE_PAYMENT_MESSAGES.paidOff);
    const unfunded = unfundedPaymentRefusal(loan.status);
    if (unfunded) throw new AppError("servicing", 409, unfunded);
    const restriction = (await accountRestrictions([input.bankAccountId], tx)).get(input.bankAccountId);
    if (restriction) throw new AppError("servicing", 409, restrictionReason(restriction));
    const rows = await ledgerRows(loan.id, tx);
    const quote = payoffQuote(termsOf(loan), rows.payments, rows.fees, today);
    if (quote.totalCents <= 0) throw new AppError("servicing", 409, MAKE_PAYMENT_MESSAGES.paidOff);
    let amountCents: number;
    if (input.choice === "payoff") amountCents = quote.totalCents;
    else if (input.choice === "amount") {
      if (input.amountCents === null || !Number.isSafeInteger(input.amountCents) || input.amountCents <= 0) throw new AppError("servicing", 400, MAKE_PAYMENT_MESSAGES.amountPositive);
      if (input.amountCents > quote.totalCents) throw new AppError("servicing", 400, `${MAKE_PAYMENT_MESSAGES.amountAbovePayoff} Today it is ${formatMoney(quote.totalCents)}.`);
      amountCents = input.amountCents;
    } else {
      const next = replayLedger(termsOf(loan), rows.payments, rows.fees, today).nextInstallment;
      if (!next || next.amountDueCents <= 0) throw new AppError("servicing", 409, MAKE_PAYMENT_MESSAGES.noInstallment);
      amountCents = Math.min(next.amountDueCents, quote.totalCents);
    }
    // Paying by hand replaces a debit the system queued and has not sent (autopay, a retry): one pending
    // debit at a time, never two for the same installment. One already in a file still blocks below.
    const replaced = await tx
      .update(loanPayments)
      .set({ status: "cancelled", cancelReason: PAID_BY_HAND, cancelledAt: sql`now()`, cancelledBy: viewer.id })
      .where(and(eq(loanPayments.loanId, loan.id), unsentSystemDebit))
      .returning({ id: loanPayments.id, amountCents: loanPayments.amountCents });
    for (const r of replaced)
      await writeAudit(tx, { actor: viewer, action: "payment.cancel", table: "loan_payments", recordId: r.id, details: { loanId: loan.id, reason: PAID_BY_HAND, amountCents: r.amountCents }, request });
    const reference = paymentReference();
    const inserted = await tx.execute(sql`
      insert into ${loanPayments} (loan_id, user_id, amount_cents, status, method, source, choice, reference, bank_account_id,
        authorization_version, authorized_at, authorization_ip, authorization_user_agent)
      select ${loan.id}, ${viewer.id}, ${amountCents}, 'pending', 'ach', 'borrower', ${input.choice}, ${reference}, own.id,
        ${ACH_AUTHORIZATION_VERSION}, now(), ${request.ip ?? null}, ${request.userAgent?.slice(0, 512) ?? null}
      from (${ownBankAccountIdSql(input.bankAccountId, viewer.id)}) as own
      where not exists (select 1 from ${loanPayments} where ${loanPayments.loanId} = ${loan.id} and ${loanPayments.source} = 'borrower' and ${loanPayments.status} = 'pending')
      returning id`);
    const paymentId = (inserted as unknown as { rows: { id: string }[] }).rows[0]?.id;
    if (!paymentId) {
      const [pending] = await tx
        .select({ id: loanPayments.id })
        .from(loanPayments)
        .where(and(eq(loanPayments.loanId, loan.id), eq(loanPayments.source, "borrower"), eq(loanPayments.status, "pending")))
        .limit(1);
      if (pending) throw new AppError("servicing", 409, MAKE_PAYMENT_MESSAGES.pendingExists);
      throw new AppError("servicing", 400, MAKE_PAYMENT_MESSAGES.bankAccountUnknown);
    }
    await writeAudit(tx, {
      actor: viewer,
      action: "payment.authorize",
      table: "loan_payments",
      recordId: paymentId,
      details: { loanId: loan.id, amountCents, choice: input.choice, reference, bankAccountId: input.bankAccountId, authorizationVersion: ACH_AUTHORIZATION_VERSION, onOrAfter: today },
      request,
    });
    const owner = await loanOwner(tx, loan);
    if (owner)
      await enqueueEmail(tx, {
        to: owner.email,
        ...paymentAuthorizedEmail({ ...loanMailSubject(loan, owner.loanType), amountCents, onOrAfter: today, reference }),
      });
    return { paymentId, amountCents, reference, onOrAfter: today, replacedDebitIds: replaced.map((r) => r.id) };
  });
}

export type LoanPageAnswer = ServiceAnswer<MakePaymentActionData> | PaymentAccountAnswer | AutopayAnswer;

function answer(status: number, toast: Toast, extra: Partial<MakePaymentActionData> = {}): LoanPageAnswer {
  return { status, body: { ok: status < 300, intent: "pay", toast, at: Date.now(), ...extra } };
}

const TITLE = "Payment not made";

/** The loan page's action after the guard (requireUser) and the same-origin check: intents pay, change-account and the autopay ones. */
export async function borrowerLoanAction(request: Request, urlId: string | undefined, caller: Caller<LoanViewer>, db: Db = getDb()): Promise<LoanPageAnswer> {
  const read = await readActionForm(request, (message): MakePaymentActionData => ({ ok: false, intent: null, toast: errorToast("Request refused", message), at: Date.now() }));
  if (!read.ok) return read.answer;
  const id = await ownLoanId(urlId, caller.actor, db);
  if (!id) return { status: 404, body: { ok: false, intent: null, toast: errorToast("Not found", MAKE_PAYMENT_MESSAGES.notFound), at: Date.now() } };
  const values: Record<string, string> = {};
  for (const [key, value] of read.form.entries()) if (typeof value === "string" && !(key in values)) values[key] = value;
  if (values.intent === CHANGE_ACCOUNT_INTENT) return changePaymentAccountAnswer(id, values, caller, db);
  if ((AUTOPAY_INTENTS as readonly string[]).includes(values.intent ?? "")) return autopayAnswer(id, values, caller, db);
  if (values.intent !== "pay") return { status: 400, body: { ok: false, intent: null, toast: errorToast("Request refused", "Unknown action."), at: Date.now() } };
  const parsed = makePaymentSchema.safeParse(values);
  if (!parsed.success) return answer(400, errorToast(TITLE, parsed.error.issues[0]?.message ?? "Check the form and try again."), { fieldErrors: issuesToFieldErrors(parsed.error) });
  try {
    const result = await makePayment(id, parsed.data, caller, db);
    return answer(200, {
      type: "success",
      title: "Payment authorized",
      description: `Your payment of ${formatMoney(result.amountCents)} (reference ${result.reference}) is Pending until it settles. We e-mailed you a confirmation.`,
    });
  } catch (error) {
    if (error instanceof AppError) {
      const field = error.message.startsWith(MAKE_PAYMENT_MESSAGES.amountAbovePayoff) || error.message === MAKE_PAYMENT_MESSAGES.amountPositive ? "amount" : error.message === MAKE_PAYMENT_MESSAGES.bankAccountUnknown ? "bankAccountId" : null;
      return answer(error.status, errorToast(TITLE, error.message), field ? { fieldErrors: { [field]: [error.message] } } : {});
    }
    logFailure("borrower", "make payment failed", error, { user: caller.actor.id, loanId: id });
    return answer(500, errorToast(TITLE, "Something went wrong on our side. Please try again."));
  }
}
