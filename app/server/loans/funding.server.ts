import { LIVE_FUNDING_STATUSES } from "~/domain/servicing-enums";
import { and, desc, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import { checklistChangeMessage, fundsReturnedMessage, fundsSentMessage, returnCodeText, unmetMessage } from "~/domain/funding-checklist";
import { formatAgreementDay } from "~/domain/views/agreement-preview";
import { addDays, todayUtc } from "~/domain/dates";
import { nextBankingDay } from "~/domain/banking-days";
import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";
import { getConfig } from "~/server/platform/config.server";
import { ENCRYPTION_PURPOSES } from "~/server/platform/crypto/encryption-purposes.server";
import { getDb, type Db, type DbOrTx } from "~/server/platform/db/client.server";
import { achBatches, approvedLoans, bankAccountValidations, loanFundings, loanPaymentAccounts } from "~/server/platform/db/schema.server";
import { AppError } from "~/server/platform/http/app-error.server";
import { enqueueEmail } from "~/server/platform/mail/outbox.server";
import { applicationById, acceptIdDocument, applicationScreeningSubject, bankAccountsByIds, bankAccountsOfUser, sealedBankAccountsByIds } from "~/server/applications/index.server";
import { screenForFunding } from "~/server/sanctions/index.server";
import { recordEvent } from "~/server/conversation/index.server";
import { signedOfferFacts } from "~/server/offers/index.server";
import { decryptOrLegacy } from "~/server/staff/index.server";
import { loanCancelledEmail, loanFundsReturnedEmail, loanFundsSentEmail } from "./funding-emails.server";
import { checklistFromFingerprint, loanChecklist } from "./funding-checklist.server";
import { lockLoan, type LoanRow } from "./ledger.server";
import { traceNumberOf } from "./trace-numbers.server";
import { liveLoansUsingAccount } from "./account-loans.server";
import { loanMailSubject } from "./loan-reference.server";
import { loanOwner } from "./loan-owner.server";
import { isValidRoutingNumber, nachaName, type NachaEntry } from "./nacha.server";

/**
 * Funding a signed loan: Fund Loan prepares the ACH credit of the net proceeds to the loan's current
 * payment account (only when every Funding Checklist item is met, and only as the checklist the page
 * showed); at or above the four-eyes threshold another staff member releases it; the next ACH file
 * carries it (fundingCreditsForBatch, claimFundingCredits); staff then mark it settled (the loan is
 * active, interest runs from the settlement day) or returned (the loan awaits funding again). A loan not
 * funded within the funding deadline can be cancelled. Every change locks the loan's row first, changes
 * the credit with one conditional statement, touches approved_loans (its live trigger refreshes the
 * borrower's and staff's pages), and is audited; no bank number ever reaches an audit row or an e-mail.
 */

export const FUNDING_MESSAGES = {
  loanNotFound: "This loan does not exist.",
  notAwaiting: "This loan is not awaiting funding.",
  alreadyFunding: "This loan already has a funding credit.",
  tooLate: (firstDue: string) =>
    `Too late to fund: the first payment falls due on ${formatAgreementDay(firstDue)}, before funds sent now could arrive. Cancel the loan and make a new offer.`,
  noAccount: "The loan has no bank account to send the funds to.",
  notPrepared: "There is no funding credit awaiting release on this loan.",
  preparerCannotRelease: "The staff member who prepared the funding cannot release it.",
  notCancellable: "Only a funding credit not yet in an ACH file can be cancelled.",
  notSent: "Only a funding credit sent in an ACH file can be marked settled or returned.",
  settledBeforeEffective: "The settlement date cannot be before the ACH file's effective date",
  settledInFuture: "The settlement date cannot be in the future.",
  returnedBeforeEffective: "The return date cannot be before the ACH file's effective date",
  returnedInFuture: "The return date cannot be in the future.",
  cancelNotAwaiting: "Only a loan awaiting funding can be cancelled.",
  cancelSent: "The funds were already sent to the borrower: the loan cannot be cancelled.",
  feeNotAwaiting: "The origination fee can be recorded only while the loan awaits funding.",
  feeWithCredit: "The funding credit is already prepared: cancel it first to change how the fee is satisfied.",
  notFunded: "This loan is not funded yet: payments start after the funds are sent.",
} as const;

/** The refusal of Cancel Loan before the funding deadline, with the first day it is allowed. */
export const cancelTooEarly = (days: number, from: string) => `A loan can be cancelled when it is not funded within ${days} days of signing (from ${from}).`;

const refuse = (status: number, message: string) => new AppError("funding", status, message);

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } };
  return e?.code === "23505" || e?.cause?.code === "23505";
}

/** The loan locked for the rest of the transaction, or 404. */
async function lockedLoan(tx: DbOrTx, loanId: string): Promise<LoanRow> {
  const loan = await lockLoan(tx, loanId);
  if (!loan) throw refuse(404, FUNDING_MESSAGES.loanNotFound);
  return loan;
}

/** Marks the loan changed: its live trigger tells the borrower's and staff's open pages to refresh. */
async function touchLoan(tx: DbOrTx, loanId: string): Promise<void> {
  await tx.update(approvedLoans).set({ updatedAt: sql`now()` }).where(eq(approvedLoans.id, loanId));
}

/** The loan's credit in one of these statuses (at most one is live). */
async function fundingIn(tx: DbOrTx, loanId: string, statuses: readonly (typeof loanFundings.$inferSelect)["status"][]) {
  const [row] = await tx
    .select()
    .from(loanFundings)
    .where(and(eq(loanFundings.loanId, loanId), inArray(loanFundings.status, [...statuses])))
    .orderBy(desc(loanFundings.preparedAt))
    .limit(1);
  return row ?? null;
}

/** The signing day ('yyyy-MM-dd'): the signed agreement's, else the loan's approval. */
async function signedOnOf(loan: LoanRow, db: DbOrTx): Promise<string> {
  const facts = loan.offerId ? await signedOfferFacts(loan.offerId, db) : null;
  return todayUtc(facts?.signedAt ?? loan.approvalDate);
}

/** The first day Cancel Loan is allowed: FUNDING_DEADLINE_DAYS after signing. */
export async function cancellableFrom(loan: LoanRow, db: DbOrTx = getDb()): Promise<string> {
  return addDays(await signedOnOf(loan, db), getConfig().fundingDeadlineDays);
}

export type FundLoanResult = { fundingId: string; status: "prepared" | "released"; amountCents: number };

/**
 * Fund Loan: refused (409) unless the loan awaits funding, has no live credit, the checklist the page
 * showed (its fingerprint) is the checklist now (else naming what changed), and every item is met
 * (else naming the unmet). The credit is the net proceeds, PPD (CCD for a business loan), to the loan's
 * current payment account; released at once below the four-eyes threshold, else prepared for another
 * staff member's Release Funds. Twice or in parallel: the row lock serialises, and the partial unique
 * index (one live credit per loan) decides even without it.
 */
export async function fundLoan(loanId: string, input: { fingerprint: string }, caller: Caller, db: Db = getDb()): Promise<FundLoanResult> {
  const { actor, request } = caller;
  // Screened again against today's lists before money moves, in its own transaction: a potential match
  // found now is kept (and shown to staff) even though it refuses this funding (the checklist changed).
  const [subjectLoan] = await db.select({ applicationId: approvedLoans.applicationId }).from(approvedLoans).where(eq(approvedLoans.id, loanId)).limit(1);
  const subject = subjectLoan ? await applicationScreeningSubject(subjectLoan.applicationId, db) : null;
  if (subject) await screenForFunding(db, subject);
  try {
    return await db.transaction(async (tx) => {
      const loan = await lockedLoan(tx, loanId);
      if (await fundingIn(tx, loan.id, LIVE_FUNDING_STATUSES)) throw refuse(409, FUNDING_MESSAGES.alreadyFunding);
      if (loan.status !== "awaiting_funding") throw refuse(409, FUNDING_MESSAGES.notAwaiting);
      // Funds sent now settle on the next file's effective date at the earliest; the borrower is never
      // due to pay before the money arrives.
      if (loan.firstPaymentDue && nextBankingDay(todayUtc()) >= loan.firstPaymentDue) throw refuse(409, FUNDING_MESSAGES.tooLate(loan.firstPaymentDue));
      const checklist = await loanChecklist(loan, tx);
      if (input.fingerprint !== checklist.fingerprint) throw refuse(409, checklistChangeMessage(checklistFromFingerprint(input.fingerprint), checklist.items));
      const unmet = unmetMessage(checklist.items);
      if (unmet) throw refuse(409, unmet);
      if (!checklist.account) throw refuse(409, FUNDING_MESSAGES.noAccount);
      const app = await applicationById(loan.applicationId, tx);
      const secCode = app?.loanType === "business" ? "CCD" : "PPD";
      const fourEyes = checklist.netProceedsCents >= getConfig().fourEyesThresholdCents;
      const status = fourEyes ? "prepared" : "released";
      const [row] = await tx
        .insert(loanFundings)
        .values({
          loanId: loan.id,
          bankAccountId: checklist.account.bankAccountId,
          amountCents: checklist.netProceedsCents,
          secCode,
          status,
          checklist: checklist.items,
          preparedBy: actor.id,
          ...(fourEyes ? {} : { releasedBy: actor.id, releasedAt: sql`now()` }),
        })
        .returning({ id: loanFundings.id });
      await touchLoan(tx, loan.id);
      await writeAudit(tx, {
        actor,
        action: "loan.fund_prepare",
        table: "loan_fundings",
        recordId: row!.id,
        details: { loanId: loan.id, amountCents: checklist.netProceedsCents, secCode, status, bankAccountId: checklist.account.bankAccountId, last4: checklist.account.last4, checklist: checklist.items.map((i) => ({ key: i.key, met: i.met })) },
        request,
      });
      return { fundingId: row!.id, status, amountCents: checklist.netProceedsCents };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw refuse(409, FUNDING_MESSAGES.alreadyFunding);
    throw error;
  }
}

/**
 * Release Funds (four eyes): another staff member than the preparer releases a prepared credit, with
 * one conditional UPDATE (prepared, and prepared by someone else). The checklist must still be met:
 * a sanctions match or a failed account found since the preparation stops the money.
 */
export async function releaseFunds(loanId: string, { actor, request }: Caller, db: Db = getDb()): Promise<{ fundingId: string }> {
  return db.transaction(async (tx) => {
    const loan = await lockedLoan(tx, loanId);
    const prepared = await fundingIn(tx, loan.id, ["prepared"]);
    if (!prepared) throw refuse(409, FUNDING_MESSAGES.notPrepared);
    if (prepared.preparedBy === actor.id) throw refuse(403, FUNDING_MESSAGES.preparerCannotRelease);
    const checklist = await loanChecklist(loan, tx);
    const unmet = unmetMessage(checklist.items);
    if (unmet) throw refuse(409, unmet.replace("Fund Loan", "Release Funds"));
    const [released] = await tx
      .update(loanFundings)
      .set({ status: "released", releasedBy: actor.id, releasedAt: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(loanFundings.id, prepared.id), eq(loanFundings.status, "prepared"), sql`${loanFundings.preparedBy} is distinct from ${actor.id}`))
      .returning({ id: loanFundings.id });
    if (!released) throw refuse(409, FUNDING_MESSAGES.notPrepared);
    await touchLoan(tx, loan.id);
    await writeAudit(tx, { actor, action: "loan.fund_release", table: "loan_fundings", recordId: released.id, details: { loanId: loan.id, amountCents: prepared.amountCents, preparedBy: prepared.preparedBy }, request });
    return { fundingId: released.id };
  });
}

/** Cancel Funding: a prepared or released credit not yet in an ACH file is cancelled (the loan awaits funding; Fund Loan can prepare another). */
export async function cancelFunding(loanId: string, { actor, request }: Caller, db: Db = getDb()): Promise<{ fundingId: string }> {
  return db.transaction(async (tx) => {
    const loan = await lockedLoan(tx, loanId);
    const [cancelled] = await tx
      .update(loanFundings)
      .set({ status: "cancelled", cancelledAt: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(loanFundings.loanId, loan.id), inArray(loanFundings.status, ["prepared", "released"]), isNull(loanFundings.achBatchId)))
      .returning({ id: loanFundings.id, amountCents: loanFundings.amountCents });
    if (!cancelled) throw refuse(409, FUNDING_MESSAGES.notCancellable);
    await touchLoan(tx, loan.id);
    await writeAudit(tx, { actor, action: "loan.fund_cancel", table: "loan_fundings", recordId: cancelled.id, details: { loanId: loan.id, amountCents: cancelled.amountCents }, request });
    return { fundingId: cancelled.id };
  });
}

/** The loan's sent credit and its file's effective date (the day the credit could settle at the earliest). */
async function sentFunding(tx: DbOrTx, loanId: string) {
  const sent = await fundingIn(tx, loanId, ["sent"]);
  if (!sent || !sent.achBatchId) throw refuse(409, FUNDING_MESSAGES.notSent);
  const [batch] = await tx.select({ effectiveDate: achBatches.effectiveDate }).from(achBatches).where(eq(achBatches.id, sent.achBatchId)).limit(1);
  return { sent, effectiveDate: batch!.effectiveDate };
}

/** The masked account a credit went to: its last four digits. */
async function last4Of(bankAccountId: string, db: DbOrTx): Promise<string> {
  return (await bankAccountsByIds([bankAccountId], db)).get(bankAccountId)?.last4 ?? "";
}

/**
 * Mark Funds Settled: the credit settled on `settledOn` (not before its file's effective date, not in
 * the future): the loan is active and funded on that day (interest accrues from it, never before the
 * expected funding date its disclosure assumed), the timeline says so, and the borrower is e-mailed
 * "Funds sent on <date> to account ••••1234" (the file's effective date; the last four digits only).
 */
export async function settleFunding(loanId: string, settledOn: string, { actor, request }: Caller, db: Db = getDb(), today: string = todayUtc()): Promise<{ fundingId: string }> {
  return db.transaction(async (tx) => {
    const loan = await lockedLoan(tx, loanId);
    const { sent, effectiveDate } = await sentFunding(tx, loan.id);
    if (settledOn < effectiveDate) throw refuse(400, `${FUNDING_MESSAGES.settledBeforeEffective} (${effectiveDate}).`);
    if (settledOn > today) throw refuse(400, FUNDING_MESSAGES.settledInFuture);
    const [settled] = await tx
      .update(loanFundings)
      .set({ status: "settled", settledOn, updatedAt: sql`now()` })
      .where(and(eq(loanFundings.id, sent.id), eq(loanFundings.status, "sent")))
      .returning({ id: loanFundings.id });
    if (!settled) throw refuse(409, FUNDING_MESSAGES.notSent);
    await tx
      .update(approvedLoans)
      .set({ status: "active", fundedOn: settledOn, servicedOn: null, updatedAt: sql`now()` })
      .where(and(eq(approvedLoans.id, loan.id), eq(approvedLoans.status, "awaiting_funding")));
    const last4 = await last4Of(sent.bankAccountId, tx);
    await recordEvent(tx, { applicationId: loan.applicationId, ownerId: loan.userId, kind: "loan_funded", actorId: actor.id, actorSide: "staff", summary: fundsSentMessage(formatAgreementDay(effectiveDate), last4) });
    await writeAudit(tx, { actor, action: "loan.fund_settle", table: "loan_fundings", recordId: settled.id, details: { loanId: loan.id, settledOn, effectiveDate, amountCents: sent.amountCents, last4 }, request });
    const owner = await loanOwner(tx, loan);
    if (owner) await enqueueEmail(tx, { to: owner.email, ...loanFundsSentEmail({ ...loanMailSubject(loan, owner.loanType), amountCents: sent.amountCents, sentOn: effectiveDate, last4 }) });
    return { fundingId: settled.id };
  });
}

/**
 * Mark Funds Returned: the bank sent the credit back with a return code on `returnedOn`. The loan
 * stays awaiting funding; the account's validation fails with the code (an account that returned a
 * credit is not one to send it to again), so Fund Loan waits for another validated account; the
 * borrower is asked for one on their loan page and by e-mail.
 */
export async function returnFunding(
  loanId: string,
  input: { returnCode: string; returnedOn: string },
  { actor, request }: Caller,
  db: Db = getDb(),
  today: string = todayUtc(),
): Promise<{ fundingId: string }> {
  return db.transaction(async (tx) => {
    const loan = await lockedLoan(tx, loanId);
    const { sent, effectiveDate } = await sentFunding(tx, loan.id);
    if (input.returnedOn < effectiveDate) throw refuse(400, `${FUNDING_MESSAGES.returnedBeforeEffective} (${effectiveDate}).`);
    if (input.returnedOn > today) throw refuse(400, FUNDING_MESSAGES.returnedInFuture);
    const [returned] = await tx
      .update(loanFundings)
      .set({ status: "returned", returnCode: input.returnCode, returnedOn: input.returnedOn, updatedAt: sql`now()` })
      .where(and(eq(loanFundings.id, sent.id), eq(loanFundings.status, "sent")))
      .returning({ id: loanFundings.id });
    if (!returned) throw refuse(409, FUNDING_MESSAGES.notSent);
    await tx
      .update(bankAccountValidations)
      .set({ status: "failed", returnCode: input.returnCode, returnedOn: input.returnedOn, updatedAt: sql`now()` })
      .where(and(eq(bankAccountValidations.bankAccountId, sent.bankAccountId), ne(bankAccountValidations.status, "failed")));
    await touchLoan(tx, loan.id);
    await recordEvent(tx, { applicationId: loan.applicationId, ownerId: loan.userId, kind: "funds_returned", actorId: actor.id, actorSide: "staff", summary: `The bank returned the loan funds (${returnCodeText(input.returnCode)}).` });
    await writeAudit(tx, { actor, action: "loan.fund_return", table: "loan_fundings", recordId: returned.id, details: { loanId: loan.id, returnCode: input.returnCode, returnedOn: input.returnedOn, amountCents: sent.amountCents }, request });
    const owner = await loanOwner(tx, loan);
    if (owner) await enqueueEmail(tx, { to: owner.email, ...loanFundsReturnedEmail({ ...loanMailSubject(loan, owner.loanType), message: fundsReturnedMessage(input.returnCode) }) });
    return { fundingId: returned.id };
  });
}

/**
 * Cancel Loan: a loan awaiting funding and not funded within FUNDING_DEADLINE_DAYS of signing is
 * cancelled with a reason: the agreement is void, a credit not yet sent is cancelled with it, so is a
 * prenote of its account still queued (withdrawQueuedPrenotes), the borrower is told. A credit already
 * sent or settled refuses it (the money may be on its way).
 */
export async function cancelLoan(loanId: string, reason: string, { actor, request }: Caller, db: Db = getDb(), today: string = todayUtc()): Promise<void> {
  await db.transaction(async (tx) => {
    const loan = await lockedLoan(tx, loanId);
    if (loan.status !== "awaiting_funding") throw refuse(409, FUNDING_MESSAGES.cancelNotAwaiting);
    if (await fundingIn(tx, loan.id, ["sent", "settled"])) throw refuse(409, FUNDING_MESSAGES.cancelSent);
    const from = await cancellableFrom(loan, tx);
    if (today < from) throw refuse(409, cancelTooEarly(getConfig().fundingDeadlineDays, from));
    const credits = await tx
      .update(loanFundings)
      .set({ status: "cancelled", cancelledAt: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(loanFundings.loanId, loan.id), inArray(loanFundings.status, ["prepared", "released"]), isNull(loanFundings.achBatchId)))
      .returning({ id: loanFundings.id });
    const [cancelled] = await tx
      .update(approvedLoans)
      .set({ status: "cancelled", cancelledAt: sql`now()`, cancelledBy: actor.id, cancelReason: reason, nextDueDate: null, updatedAt: sql`now()` })
      .where(and(eq(approvedLoans.id, loan.id), eq(approvedLoans.status, "awaiting_funding")))
      .returning({ id: approvedLoans.id });
    if (!cancelled) throw refuse(409, FUNDING_MESSAGES.cancelNotAwaiting);
    const prenotesWithdrawn = await withdrawQueuedPrenotes(tx, loan);
    await recordEvent(tx, { applicationId: loan.applicationId, ownerId: loan.userId, kind: "loan_cancelled", actorId: actor.id, actorSide: "staff", summary: "The loan was cancelled before funding: the agreement is void." });
    await writeAudit(tx, { actor, action: "loan.cancel", table: "approved_loans", recordId: loan.id, details: { reason, cancellableFrom: from, creditsCancelled: credits.map((c) => c.id), prenotesWithdrawn }, request });
    const owner = await loanOwner(tx, loan);
    if (owner) await enqueueEmail(tx, { to: owner.email, ...loanCancelledEmail({ ...loanMailSubject(loan, owner.loanType), reason }) });
  });
}

/**
 * A cancelled loan's prenotes still queued for the next file (pending, in no file) are withdrawn, in
 * the cancelling transaction: of the account given with its application and of every payment account
 * chosen for it, unless another live loan of the borrower pays from (or is funded to) that account,
 * whose prenote it still is. Deleted rather than marked failed: the CHECK constraints allow either (a
 * failed row needs no return code), but every reader takes a failed prenote for the bank's refusal of
 * the account, and one never sent says nothing about the account; the loan's audit row names them.
 * Returns the ids withdrawn.
 */
async function withdrawQueuedPrenotes(tx: DbOrTx, loan: LoanRow): Promise<string[]> {
  const given = (await bankAccountsOfUser(loan.userId, tx)).filter((a) => a.applicationId === loan.applicationId);
  const chosen = await tx.select({ id: loanPaymentAccounts.bankAccountId }).from(loanPaymentAccounts).where(eq(loanPaymentAccounts.loanId, loan.id));
  const withdrawn: string[] = [];
  for (const accountId of new Set([...given, ...chosen].map((a) => a.id))) {
    if ((await liveLoansUsingAccount(tx, accountId, loan.id)).length > 0) continue;
    const rows = await tx
      .delete(bankAccountValidations)
      .where(
        and(
          eq(bankAccountValidations.bankAccountId, accountId),
          eq(bankAccountValidations.method, "prenote"),
          eq(bankAccountValidations.status, "pending"),
          isNull(bankAccountValidations.achBatchId),
        ),
      )
      .returning({ id: bankAccountValidations.id });
    withdrawn.push(...rows.map((r) => r.id));
  }
  return withdrawn;
}

/**
 * Record Fee Collected: the origination fee was paid separately (reference required), so it is no
 * longer deducted: the net proceeds become the whole amount. Only while the loan awaits funding and
 * before a credit is prepared (the credit's amount is fixed when it is prepared).
 */
export async function recordFeeCollected(loanId: string, reference: string, { actor, request }: Caller, db: Db = getDb()): Promise<void> {
  await db.transaction(async (tx) => {
    const loan = await lockedLoan(tx, loanId);
    if (loan.status !== "awaiting_funding") throw refuse(409, FUNDING_MESSAGES.feeNotAwaiting);
    if (await fundingIn(tx, loan.id, LIVE_FUNDING_STATUSES)) throw refuse(409, FUNDING_MESSAGES.feeWithCredit);
    await tx
      .update(approvedLoans)
      .set({ originationFeeHandling: "collected", originationFeeCollectedAt: sql`now()`, originationFeeCollectedBy: actor.id, originationFeeReference: reference, updatedAt: sql`now()` })
      .where(eq(approvedLoans.id, loan.id));
    await writeAudit(tx, { actor, action: "loan.fee_collected", table: "approved_loans", recordId: loan.id, details: { reference, previous: loan.originationFeeHandling }, request });
  });
}

/** Accept ID Document from the loan's checklist: the document must be an ID document of the loan's application (409 otherwise). */
export async function acceptLoanIdDocument(loanId: string, documentId: string, caller: Caller, db: Db = getDb()): Promise<void> {
  await db.transaction(async (tx) => {
    const loan = await lockedLoan(tx, loanId);
    await acceptIdDocument(loan.applicationId, documentId, caller, tx);
    await touchLoan(tx, loan.id);
  });
}

// ---------------------------------------------------------------------------------------------
// The ACH file's credits
// ---------------------------------------------------------------------------------------------

export const FUNDING_SKIP_REASONS = {
  loanNotAwaiting: (status: string) => `The loan is not awaiting funding (${status.replace(/_/g, " ")}): cancel this credit.`,
  notValidated: "The bank account is not validated: the credit waits for its validation.",
  noAccount: "No bank account on file for this credit.",
  unreadable: "The bank account's numbers cannot be decrypted (the key that encrypted them is no longer configured).",
  invalidRouting: "The routing number is not a valid US routing number.",
  invalidAccount: "The account number is not 1 to 17 letters or digits.",
  blankName: "The account holder's name has no letter or digit an ACH file can carry, even transliterated to Latin letters.",
} as const;

/** Up to 15 characters naming the loan to the lender (the NACHA entry's Individual Identification Number). */
function individualIdOf(loanId: string): string {
  return loanId.replace(/-/g, "").slice(0, 15).toUpperCase();
}

/**
 * The released credits not in a file yet, locked for the caller's transaction (FOR UPDATE SKIP LOCKED:
 * a second batch made at the same moment takes none of them), each as an entry or the reason it waits:
 * the loan must still await funding and the account be validated, its numbers readable and valid.
 */
export async function fundingCreditsForBatch(tx: DbOrTx): Promise<{ fundingId: string; loanId: string; entry: NachaEntry | null; skipReason: string | null }[]> {
  const credits = await tx
    .select({ id: loanFundings.id, loanId: loanFundings.loanId, bankAccountId: loanFundings.bankAccountId, amountCents: loanFundings.amountCents, secCode: loanFundings.secCode })
    .from(loanFundings)
    .where(and(eq(loanFundings.status, "released"), isNull(loanFundings.achBatchId)))
    .orderBy(loanFundings.preparedAt, loanFundings.id)
    .for("update", { skipLocked: true });
  if (credits.length === 0) return [];
  const loans = await tx.select({ id: approvedLoans.id, status: approvedLoans.status }).from(approvedLoans).where(inArray(approvedLoans.id, [...new Set(credits.map((c) => c.loanId))]));
  const statusOf = new Map(loans.map((l) => [l.id, l.status]));
  const accounts = await sealedBankAccountsByIds(credits.map((c) => c.bankAccountId), tx);
  const validated = new Set(
    (
      await tx
        .select({ bankAccountId: bankAccountValidations.bankAccountId })
        .from(bankAccountValidations)
        .where(and(inArray(bankAccountValidations.bankAccountId, [...new Set(credits.map((c) => c.bankAccountId))]), eq(bankAccountValidations.status, "validated")))
    ).map((v) => v.bankAccountId),
  );
  return credits.map((c) => {
    const skip = (skipReason: string) => ({ fundingId: c.id, loanId: c.loanId, entry: null, skipReason });
    const status = statusOf.get(c.loanId) ?? "closed";
    if (status !== "awaiting_funding") return skip(FUNDING_SKIP_REASONS.loanNotAwaiting(status));
    if (!validated.has(c.bankAccountId)) return skip(FUNDING_SKIP_REASONS.notValidated);
    const account = accounts.get(c.bankAccountId);
    if (!account) return skip(FUNDING_SKIP_REASONS.noAccount);
    const number = decryptOrLegacy(account.accountNumber, ENCRYPTION_PURPOSES.accountNumber);
    const routing = decryptOrLegacy(account.routingNumber, ENCRYPTION_PURPOSES.routingNumber);
    if (!number.ok || !routing.ok) return skip(FUNDING_SKIP_REASONS.unreadable);
    if (!isValidRoutingNumber(routing.value)) return skip(FUNDING_SKIP_REASONS.invalidRouting);
    if (!/^[0-9A-Za-z-]{1,17}$/.test(number.value)) return skip(FUNDING_SKIP_REASONS.invalidAccount);
    if (!nachaName(account.holder ?? "")) return skip(FUNDING_SKIP_REASONS.blankName);
    const entry: NachaEntry = {
      // The proceeds, authorised in writing by the signed agreement: PPD to a consumer, CCD to a business.
      secCode: c.secCode,
      direction: "credit",
      routingNumber: routing.value,
      accountNumber: number.value,
      accountType: account.accountType === "savings" ? "savings" : "checking",
      amountCents: c.amountCents,
      individualId: individualIdOf(c.loanId),
      individualName: account.holder,
    };
    return { fundingId: c.id, loanId: c.loanId, entry, skipReason: null };
  });
}

/** The credits written into ACH file `batchId`: released → sent, in the caller's transaction; throws unless every one was still released and unbatched. */
export async function claimFundingCredits(tx: DbOrTx, fundingIds: string[], batchId: string, traces: ReadonlyMap<string, string> = new Map()): Promise<void> {
  if (fundingIds.length === 0) return;
  const claimed = await tx
    .update(loanFundings)
    .set({ status: "sent", achBatchId: batchId, updatedAt: sql`now()`, achTraceNumber: traceNumberOf(loanFundings.id, traces) })
    .where(and(inArray(loanFundings.id, fundingIds), eq(loanFundings.status, "released"), isNull(loanFundings.achBatchId)))
    .returning({ id: loanFundings.id, loanId: loanFundings.loanId });
  if (claimed.length !== new Set(fundingIds).size) throw new Error(`claimFundingCredits: ${fundingIds.length - claimed.length} of ${fundingIds.length} credits were no longer released`);
  // The borrower's page shows "Funds sent on …" from now on.
  await tx.update(approvedLoans).set({ updatedAt: sql`now()` }).where(inArray(approvedLoans.id, [...new Set(claimed.map((c) => c.loanId))]));
}
