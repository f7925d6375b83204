import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { errorToast, type Toast } from "~/domain/action-result";
import { loanMailSubject } from "./loan-reference.server";
import { issuesToFieldErrors } from "~/domain/validation/field-errors";
import {
  CHANGE_ACCOUNT_INTENT,
  changePaymentAccountSchema,
  PAYMENT_ACCOUNT_MESSAGES,
  type ChangePaymentAccountInput,
  type PaymentAccountActionData,
} from "~/domain/validation/payment-account";
import { maskedAccount } from "~/domain/views/borrower-loan";
import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";

import { sealedBankNumbers } from "~/server/platform/crypto/bank-numbers.server";
import { getDb, type Db, type DbOrTx } from "~/server/platform/db/client.server";
import { loanFundings, loanPaymentAccounts, loanPayments } from "~/server/platform/db/schema.server";
import { addBankAccount, applicationBankAccount, bankAccountsByIds, bankAccountsOfUser, sealedBankAccountsByIds, type BankAccountRecord } from "~/server/applications/index.server";
import { ENCRYPTION_PURPOSES } from "~/server/platform/crypto/encryption-purposes.server";
import { decryptOrLegacy } from "~/server/staff/index.server";
import { accountRestrictions, restrictionReason, type AccountRestriction } from "./account-restrictions.server";
import type { ServiceAnswer } from "~/server/platform/http/action-answer.server";
import { logFailure } from "~/server/platform/log/describe-error.server";
import { enqueueEmail } from "~/server/platform/mail/outbox.server";
import { paymentAccountChangedEmail } from "~/server/loans/payment-account-changed-email.server";
import { onOwnLockedLoan, type LoanViewer } from "./borrower-loan.server";
import type { LoanRow } from "./ledger.server";
import { loanOwner } from "./loan-owner.server";
import { requestAccountValidation } from "./account-validations.server";
import { AppError, actionRefusal } from "~/server/platform/http/app-error.server";

/**
 * The bank account a loan's payments are debited from (decision 0071). The current row of
 * loan_payment_accounts when the borrower has changed it; before any change, the account given with
 * the loan's application (its primary one first). Only masked facts leave this module.
 */

/**
 * Loans in these stored statuses take no more debits, so their account is not changed either. A loan
 * awaiting funding can change it: the account is also where its proceeds are sent.
 */
const CLOSED_LOAN_STATUSES: readonly LoanRow["status"][] = ["paid_off", "closed", "cancelled"];

export type PaymentAccountView = { bankAccountId: string; label: string; last4: string; accountType: string; holder: string; bankName: string };

function view(row: Pick<BankAccountRecord, "id" | "accountType" | "last4" | "holder" | "bankName">): PaymentAccountView {
  return { bankAccountId: row.id, accountType: row.accountType, last4: row.last4, holder: row.holder, bankName: row.bankName, label: maskedAccount(row.accountType, row.last4) };
}

/** The loan's current payment account, or null when it has none (no account with the application). */
export async function currentPaymentAccount(loan: Pick<LoanRow, "id" | "applicationId" | "userId">, db: DbOrTx = getDb()): Promise<PaymentAccountView | null> {
  const [chosen] = await db
    .select({ bankAccountId: loanPaymentAccounts.bankAccountId })
    .from(loanPaymentAccounts)
    .where(and(eq(loanPaymentAccounts.loanId, loan.id), eq(loanPaymentAccounts.isCurrent, true)))
    .limit(1);
  const account = chosen ? (await bankAccountsByIds([chosen.bankAccountId], db)).get(chosen.bankAccountId) : null;
  if (account) return view(account);
  const given = await applicationBankAccount(loan.applicationId, loan.userId, db);
  return given ? view(given) : null;
}

/**
 * The live restriction of the borrower's account with these numbers, if they already had it on file
 * and a return made it unusable or blocked: adding the same account again must not lift it. Only the
 * borrower's accounts with the same last four digits are decrypted and compared.
 */
async function restrictionOfSameAccount(tx: DbOrTx, userId: string, accountNumber: string, routingNumber: string): Promise<AccountRestriction | null> {
  const candidates = (await bankAccountsOfUser(userId, tx)).filter((a) => a.last4 === accountNumber.slice(-4));
  const restrictions = await accountRestrictions(
    candidates.map((a) => a.id),
    tx,
  );
  if (restrictions.size === 0) return null;
  const sealed = await sealedBankAccountsByIds([...restrictions.keys()], tx);
  for (const [id, restriction] of restrictions) {
    const row = sealed.get(id);
    if (!row) continue;
    const account = decryptOrLegacy(row.accountNumber, ENCRYPTION_PURPOSES.accountNumber);
    const routing = decryptOrLegacy(row.routingNumber, ENCRYPTION_PURPOSES.routingNumber);
    if (account.ok && routing.ok && account.value === accountNumber && routing.value === routingNumber) return restriction;
  }
  return null;
}

export type ChangePaymentAccountResult = { bankAccountId: string; label: string; debitsMoved: number };

/**
 * Change Bank Account: one transaction under the loan's row lock (the lock every payment and posting
 * takes, so a payoff cannot slip in between the check and the change). Refused for a loan paid off or
 * closed. The new account is a bank_accounts row of the borrower's, on the loan's application, sealed
 * like the application's; the previous current row is marked replaced; the borrower's pending debits
 * not yet in an ACH file move to the new account (a debit already in a file stays with the account the
 * bank was sent: the file cannot change); a funding credit not in a file yet is cancelled (the proceeds
 * go to the new account once it is validated). An account with a live restriction after a return
 * (the same numbers the borrower had on file) is refused with its reason. The change is audited with the last 4 digits only, and the
 * borrower is e-mailed, in the same transaction.
 */
export async function changePaymentAccount(
  loanId: unknown,
  input: ChangePaymentAccountInput,
  { actor: viewer, request }: Caller<LoanViewer>,
  db: Db = getDb(),
  now: Date = new Date(),
): Promise<ChangePaymentAccountResult> {
  return onOwnLockedLoan(loanId, viewer, db, PAYMENT_ACCOUNT_MESSAGES.notFound, async (tx, loan) => {
    if (CLOSED_LOAN_STATUSES.includes(loan.status)) throw new AppError("servicing", 409, PAYMENT_ACCOUNT_MESSAGES.closed);
    // An account a return made unusable or blocked is not taken again as the payment account.
    const restricted = await restrictionOfSameAccount(tx, viewer.id, input.accountNumber, input.routingNumber);
    if (restricted) throw new AppError("servicing", 409, restrictionReason(restricted), { field: "accountNumber" });
    const previous = await currentPaymentAccount(loan, tx);
    const account = await addBankAccount(tx, {
      userId: viewer.id,
      applicationId: loan.applicationId,
      holder: input.accountHolderName,
      bankName: input.bankName,
      accountType: input.bankAccountType,
      ...sealedBankNumbers(input.accountNumber, input.routingNumber),
      createdAt: now,
    });
    await tx
      .update(loanPaymentAccounts)
      .set({ isCurrent: false, replacedAt: now })
      .where(and(eq(loanPaymentAccounts.loanId, loan.id), eq(loanPaymentAccounts.isCurrent, true)));
    await tx.insert(loanPaymentAccounts).values({ loanId: loan.id, bankAccountId: account.id, isCurrent: true, createdAt: now });
    // A new account is validated before its first online debit (Nacha's WEB rule): a debit prenote in
    // the next ACH file; the debits moved to it below wait for that.
    await requestAccountValidation(tx, account.id, { secCode: "WEB", direction: "debit" }, { actor: { id: viewer.id, name: viewer.name, email: viewer.email }, request });
    // Debits not in a file yet: createAchBatch claims rows with FOR UPDATE SKIP LOCKED and the same
    // "no batch yet" condition, so a debit is either moved here or already in a file, never both.
    const moved = await tx
      .update(loanPayments)
      .set({ bankAccountId: account.id })
      .where(and(eq(loanPayments.loanId, loan.id), eq(loanPayments.source, "borrower"), eq(loanPayments.status, "pending"), isNull(loanPayments.achBatchId)))
      .returning({ id: loanPayments.id });
    // A funding credit prepared for the old account and not in a file yet is cancelled: the proceeds
    // go to the loan's current account, once it is validated, by a new Fund Loan.
    const fundingsCancelled = await tx
      .update(loanFundings)
      .set({ status: "cancelled", cancelledAt: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(loanFundings.loanId, loan.id), inArray(loanFundings.status, ["prepared", "released"]), isNull(loanFundings.achBatchId)))
      .returning({ id: loanFundings.id });
    const last4 = input.accountNumber.slice(-4);
    await writeAudit(tx, {
      actor: viewer,
      action: "payment_account.change",
      table: "loan_payment_accounts",
      recordId: loan.id,
      details: {
        loanId: loan.id,
        bankAccountId: account.id,
        accountType: input.bankAccountType,
        last4,
        previousBankAccountId: previous?.bankAccountId ?? null,
        previousLast4: previous?.last4 ?? null,
        debitsMoved: moved.map((m) => m.id),
        fundingsCancelled: fundingsCancelled.map((f) => f.id),
      },
      request,
    });
    const owner = await loanOwner(tx, loan);
    if (owner)
      await enqueueEmail(tx, {
        to: owner.email,
        ...paymentAccountChangedEmail({ ...loanMailSubject(loan, owner.loanType), accountType: input.bankAccountType, last4, changedAt: now }),
      });
    return { bankAccountId: account.id, label: maskedAccount(input.bankAccountType, last4), debitsMoved: moved.length };
  });
}

export type PaymentAccountAnswer = ServiceAnswer<PaymentAccountActionData>;

function answer(status: number, toast: Toast, extra: Partial<PaymentAccountActionData> = {}): PaymentAccountAnswer {
  return { status, body: { ok: status < 300, intent: CHANGE_ACCOUNT_INTENT, toast, at: Date.now(), ...extra } };
}

/** The loan page's change-account intent, after the guard, the same-origin check and the owner check. */
export async function changePaymentAccountAnswer(loanId: string, values: Record<string, string>, caller: Caller<LoanViewer>, db: Db = getDb()): Promise<PaymentAccountAnswer> {
  // Refilled into the dialog when the form was posted without JavaScript; bounded, like the fields.
  const refill = Object.fromEntries(Object.entries(values).filter(([key]) => key !== "intent" && key in changePaymentAccountSchema.shape).map(([k, v]) => [k, v.slice(0, 200)]));
  const parsed = changePaymentAccountSchema.safeParse(values);
  if (!parsed.success) {
    return answer(400, errorToast(PAYMENT_ACCOUNT_MESSAGES.failedTitle, parsed.error.issues[0]?.message ?? "Check the form and try again."), {
      fieldErrors: issuesToFieldErrors(parsed.error),
      values: refill,
    });
  }
  try {
    const result = await changePaymentAccount(loanId, parsed.data, caller, db);
    return answer(200, { type: "success", title: PAYMENT_ACCOUNT_MESSAGES.changedTitle, description: `Payments now come from ${result.label}. We e-mailed you a confirmation.` });
  } catch (error) {
    if (error instanceof AppError) return actionRefusal(error, { title: PAYMENT_ACCOUNT_MESSAGES.failedTitle, stamped: true }, { intent: CHANGE_ACCOUNT_INTENT, values: refill });
    logFailure("borrower", "change payment account failed", error, { user: caller.actor.id, loanId });
    return answer(500, errorToast(PAYMENT_ACCOUNT_MESSAGES.failedTitle, "Something went wrong on our side. Please try again."), { values: refill });
  }
}
