import { and, desc, eq } from "drizzle-orm";
import { addMonths } from "~/domain/truth-in-lending";
import { loanReference } from "./loan-reference.server";
import { payoffQuote, SERVICING_STATUS_LABELS } from "~/domain/loan-servicing";
import { LOAN_PAYMENT_STATUS_LABELS, PAYMENT_METHOD_LABELS } from "~/domain/servicing-enums";
import { PAYOFF_QUOTE_MAX_DAYS } from "~/domain/validation/make-payment";
import { borrowerValidationText } from "~/domain/views/account-validation";
import { accountValidations } from "./account-validations.server";
import { maskedAccount, type BorrowerBankAccount, type BorrowerLoanPage, type BorrowerPaymentRow } from "~/domain/views/borrower-loan";
import { writeAudit, type AuditActor, type Caller } from "~/server/platform/audit/audit.server";
import { addDays, todayUtc } from "~/domain/dates";
import { getDb, type Db, type DbOrTx, type Tx } from "~/server/platform/db/client.server";
import { approvedLoans, loanPayments } from "~/server/platform/db/schema.server";
import { applicationById, bankAccountsByIds, bankAccountsOfUser } from "~/server/applications/index.server";
import { loadConversation } from "~/server/conversation/index.server";
import { agreementLender, hasSignedAgreement } from "~/server/offers/index.server";
import { loadLedger, lockLoan, type LoanLedger, type LoanRow } from "./ledger.server";
import { AppError } from "~/server/platform/http/app-error.server";
import { currentPaymentAccount } from "./payment-accounts.server";
import { fundingNoticesOf } from "./funding-views.server";
import { unfundedPaymentRefusal } from "~/domain/funding-checklist";
import { UUID_PATTERN } from "~/domain/ids";
import { returnedDebitsView } from "./returned-debits.server";
import { accountRestrictions, restrictionReason, type AccountRestriction } from "./account-restrictions.server";

/** An account a return restricted reads as that, before its validation: no debit can come from it. */
const restrictedText = (r: AccountRestriction | undefined) => (r ? restrictionReason(r) : null);
import { autopayPageData } from "./autopay-view.server";

/**
 * The borrower's own loan (/dashboard/loans/:id): ownership first (another person's loan,
 * a malformed id and staff all read as "not found", so the answer never says whether it exists), then
 * the page's view model from the replayed ledger. Bank accounts leave the server as type and last four.
 */

/** Who is asking: borrowers only (staff see loans on /admin, behind their second factor). */
export type LoanViewer = AuditActor & { isStaff: boolean };

/** The loan's id when it is the viewer's own, else null. */
export async function ownLoanId(loanId: unknown, viewer: { id: string; isStaff: boolean }, db: DbOrTx = getDb()): Promise<string | null> {
  if (viewer.isStaff) return null;
  if (typeof loanId !== "string" || !UUID_PATTERN.test(loanId)) return null;
  const [row] = await db
    .select({ id: approvedLoans.id })
    .from(approvedLoans)
    .where(and(eq(approvedLoans.id, loanId.toLowerCase()), eq(approvedLoans.userId, viewer.id)))
    .limit(1);
  return row?.id ?? null;
}

/**
 * A borrower's change to their own loan: the id checked as theirs, then one transaction that locks the
 * loan's row (the lock every payment and posting takes) and checks it is still theirs; otherwise 404
 * with `notFound`. `act` runs in that transaction with the locked row.
 */
export async function onOwnLockedLoan<T>(loanId: unknown, viewer: LoanViewer, db: Db, notFound: string, act: (tx: Tx, loan: LoanRow) => Promise<T>): Promise<T> {
  const id = await ownLoanId(loanId, viewer, db);
  if (!id) throw new AppError("servicing", 404, notFound);
  return db.transaction(async (tx) => {
    const loan = await lockLoan(tx, id);
    if (!loan || loan.userId !== viewer.id) throw new AppError("servicing", 404, notFound);
    return act(tx, loan);
  });
}

/** The viewer's own loan's ledger, or null. */
export async function ownLedger(loanId: unknown, viewer: { id: string; isStaff: boolean }, db: DbOrTx = getDb(), today: string = todayUtc()): Promise<LoanLedger | null> {
  const id = await ownLoanId(loanId, viewer, db);
  return id ? loadLedger(id, db, today) : null;
}

/** The borrower's bank accounts on file, masked. */
export async function ownBankAccounts(userId: string, db: DbOrTx = getDb()): Promise<(Omit<BorrowerBankAccount, "validationState"> & { accountType: string })[]> {
  const rows = await bankAccountsOfUser(userId, db);
  return rows.map((r) => ({ id: r.id, accountType: r.accountType, last4: r.last4, label: maskedAccount(r.accountType, r.last4) }));
}

/** The months with a statement: the loan's first month through `today`'s, newest first. */
export function statementMonths(startDate: string, today: string): string[] {
  const months: string[] = [];
  const last = today.slice(0, 7);
  for (let k = 0; ; k++) {
    const month = addMonths(`${startDate.slice(0, 7)}-01`, k).slice(0, 7);
    if (month > last) break;
    months.push(month);
  }
  return months.reverse();
}

/** The page's data, or null (the route answers 404). Writes 'loan.view'. */
export async function loadBorrowerLoan(loanId: unknown, { actor: viewer, request }: Caller<LoanViewer>, db: DbOrTx = getDb(), today: string = todayUtc()): Promise<BorrowerLoanPage | null> {
  const ledger = await ownLedger(loanId, viewer, db, today);
  if (!ledger) return null;
  const { loan, terms, state } = ledger;
  const app = await applicationById(loan.applicationId, db);
  const [accounts, paymentAccount, conversation, agreementOnFile, fundingNotices] = await Promise.all([
    ownBankAccounts(viewer.id, db),
    currentPaymentAccount(loan, db),
    loadConversation(loan.applicationId, { id: viewer.id, side: "applicant" }, db),
    hasSignedAgreement(loan.applicationId, viewer.id, db),
    fundingNoticesOf([loan.id], db),
  ]);
  // The loan's payment account first, so Make a Payment debits it unless the borrower picks another.
  accounts.sort((a, b) => Number(b.id === paymentAccount?.bankAccountId) - Number(a.id === paymentAccount?.bankAccountId));
  const rows = await db
    .select({
      id: loanPayments.id,
      createdAt: loanPayments.createdAt,
      receivedOn: loanPayments.receivedOn,
      amountCents: loanPayments.amountCents,
      status: loanPayments.status,
      method: loanPayments.method,
      source: loanPayments.source,
      choice: loanPayments.choice,
      reference: loanPayments.reference,
      returnCode: loanPayments.returnCode,
      bankAccountId: loanPayments.bankAccountId,
    })
    .from(loanPayments)
    .where(eq(loanPayments.loanId, loan.id))
    .orderBy(desc(loanPayments.createdAt), desc(loanPayments.id));
  const allocations = new Map(state.allocations.map((a) => [a.paymentId, a]));
  const validations = await accountValidations(accounts.map((a) => a.id), db);
  const restrictions = await accountRestrictions(accounts.map((a) => a.id), db);
  const paidFrom = await bankAccountsByIds(rows.map((r) => r.bankAccountId), db);
  const history: BorrowerPaymentRow[] = rows.map((r) => {
    const a = r.status === "posted" ? allocations.get(r.id) : undefined;
    const account = r.bankAccountId ? paidFrom.get(r.bankAccountId) : undefined;
    return {
      id: r.id,
      createdAt: r.createdAt.toISOString(),
      receivedOn: r.receivedOn,
      amountCents: r.amountCents,
      status: r.status,
      statusLabel: LOAN_PAYMENT_STATUS_LABELS[r.status],
      methodLabel: PAYMENT_METHOD_LABELS[r.method],
      sourceLabel: r.source === "borrower" ? "Online" : "Received by us",
      choice: r.choice,
      reference: r.reference,
      account: account ? maskedAccount(account.accountType, account.last4) : null,
      returnCode: r.returnCode,
      allocation: a ? { feesCents: a.feesCents, interestCents: a.interestCents, principalCents: a.principalCents, excessCents: a.excessCents, principalAfterCents: a.principalAfterCents } : null,
    };
  });
  const payoff = payoffQuote(terms, ledger.payments, ledger.fees, today);
  const { autopay, upcomingDebits, pendingBlocksPayment } = await autopayPageData(loan, accounts.map((a) => a.id), db, today);
  await writeAudit(db, { actor: viewer, action: "loan.view", table: "approved_loans", recordId: loan.id, details: { side: "borrower" }, request });
  return {
    autopay,
    upcomingDebits,
    loanId: loan.id,
    loanType: app?.loanType ?? "personal",
    today,
    status: state.status,
    statusLabel: SERVICING_STATUS_LABELS[state.status],
    loanReference: loanReference(loan),
    amountCents: loan.amountCents,
    noteRatePercent: String(loan.noteRateMilli / 1000),
    termMonths: loan.termMonths,
    paymentCents: loan.paymentCents,
    startDate: loan.startDate,
    nextPayment: state.nextInstallment,
    principalCents: state.principalCents,
    interestAccruedCents: state.interestAccruedCents,
    feesDueCents: state.feesDueCents,
    payoffTodayCents: payoff.totalCents,
    daysPastDue: state.daysPastDue,
    schedule: state.installments,
    history,
    bankAccounts: accounts.map(({ id, label, last4 }) => ({ id, label, last4, validationState: restrictedText(restrictions.get(id)) ?? borrowerValidationText(validations.get(id)) })),
    // A queued autopay or retry debit not yet in a file does not block Make a Payment (it replaces it).
    pendingPayment: pendingBlocksPayment,
    statementMonths: statementMonths(loan.startDate, today),
    payoffDates: { min: today, max: addDays(today, PAYOFF_QUOTE_MAX_DAYS) },
    lenderName: agreementLender().name,
    applicationId: loan.applicationId,
    agreementOnFile,
    conversation,
    paymentAccount: paymentAccount ? { label: paymentAccount.label, holder: paymentAccount.holder, bankName: paymentAccount.bankName } : null,
    accountChangeable: loan.status !== "paid_off" && loan.status !== "closed" && loan.status !== "cancelled",
    loanStatus: loan.status,
    // Nothing is debited from a loan whose proceeds were not sent (or that was cancelled unfunded).
    payable: loan.status !== "paid_off" && unfundedPaymentRefusal(loan.status) === null,
    funding: fundingNotices.get(loan.id) ?? null,
    returnedDebits: await returnedDebitsView(loan.id, db),
  };
}


