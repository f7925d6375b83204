import type { BorrowerHardshipData } from "./hardship";
import type { InstallmentStatus, NextInstallment, ServicingStatus } from "~/domain/loan-servicing";
import type { LoanPaymentStatus, PaymentChoice } from "~/domain/servicing-enums";
import type { ConversationView } from "./application-page";
import type { ReturnedDebitView } from "~/domain/returned-debit-outcome";
import type { BorrowerAutopay, UpcomingDebit } from "./borrower-autopay";

/**
 * The borrower's loan page (/dashboard/loans/:id), as the server hands it to the browser:
 * integer cents and 'yyyy-MM-dd' days only, and bank accounts as their type and last four digits
 * (never more of an account or routing number).
 */

export type BorrowerBankAccount = {
  id: string;
  label: string;
  last4: string;
  /** Its validation before the first debit or credit, in the borrower's words ("Validated", "Being validated: ready by …", "Returned by the bank: add another account"). */
  validationState: string;
};

export type BorrowerPaymentAllocation = { feesCents: number; interestCents: number; principalCents: number; excessCents: number; principalAfterCents: number };

export type BorrowerPaymentRow = {
  id: string;
  /** When it was made (ISO instant). */
  createdAt: string;
  /** The day the money was received (posted, reversed), or null (pending, returned). */
  receivedOn: string | null;
  amountCents: number;
  status: LoanPaymentStatus;
  statusLabel: string;
  methodLabel: string;
  sourceLabel: string;
  choice: PaymentChoice | null;
  reference: string;
  /** "Checking ••••1234" for a borrower's debit. */
  account: string | null;
  returnCode: string | null;
  /** Posted payments only: how the ledger applied it. */
  allocation: BorrowerPaymentAllocation | null;
};

export type BorrowerLoanPage = {
  /** Request Help with Payments and the plan offered or signed (hardship-views.server.ts); absent on pages built without it. */
  hardship?: BorrowerHardshipData | null;
  /** The Autopay section: on or off, the next debit, the accounts autopay may use. */
  autopay: BorrowerAutopay;
  /** Every pending borrower debit on the loan: autopay, retry or one-time. */
  upcomingDebits: UpcomingDebit[];
  loanId: string;
  loanType: string;
  /** 'yyyy-MM-dd', UTC: the day the figures are as of. */
  today: string;
  status: ServicingStatus;
  statusLabel: string;
  /** The loan's one reference, as its agreement prints it ("LN-1A2B3C4D"). */
  loanReference: string;
  amountCents: number;
  /** "8.5". */
  noteRatePercent: string;
  termMonths: number;
  paymentCents: number;
  startDate: string;
  nextPayment: NextInstallment | null;
  principalCents: number;
  interestAccruedCents: number;
  feesDueCents: number;
  /** What pays the loan off today. */
  payoffTodayCents: number;
  daysPastDue: number;
  schedule: InstallmentStatus[];
  history: BorrowerPaymentRow[];
  bankAccounts: BorrowerBankAccount[];
  /** A borrower payment is pending (one at a time). */
  pendingPayment: boolean;
  /** 'yyyy-MM', the loan's first month to this one, newest first. */
  statementMonths: string[];
  /** The payoff quote's date range ('yyyy-MM-dd'). */
  payoffDates: { min: string; max: string };
  lenderName: string;
  /** The application the loan came from: its signed agreement and its conversation with the lender. */
  applicationId: string;
  /** Whether a signed agreement PDF is on file (loans made before in-portal signing have none). */
  agreementOnFile: boolean;
  /** The application's messages with the lender, the same thread staff read on the application. */
  conversation: ConversationView;
  /** The account payments are debited from ("Checking ••••1234", holder, bank), or null when none. */
  paymentAccount: { label: string; holder: string; bankName: string } | null;
  /** Change Bank Account is offered (not for a loan paid off, closed or cancelled). */
  accountChangeable: boolean;
  /** The stored status: 'awaiting_funding' until the proceeds' credit settles, 'cancelled' when it never was. */
  loanStatus: string;
  /** Make a Payment is offered: the loan is funded and not paid off. */
  payable: boolean;
  /** Where the loan's funding stands, for the borrower (null for a loan funded before funding was recorded). */
  funding: LoanFundingNotice | null;
  /** The debits the bank returned, oldest first, each with what happens next. */
  returnedDebits: ReturnedDebitView[];
};

/**
 * The funding of a loan as its borrower sees it: awaiting funding; the funds sent (the ACH file's
 * effective date and the account's last four digits, also after the credit settled); returned by
 * their bank (with what to do); or the loan cancelled unfunded (the agreement void, with the reason).
 */
export type LoanFundingNotice =
  | { kind: "awaiting" }
  | { kind: "sent"; sentOn: string; last4: string }
  | { kind: "returned"; returnCode: string; message: string }
  | { kind: "cancelled"; cancelledOn: string; reason: string };

/** "Checking ••••1234". */
export function maskedAccount(accountType: string, last4: string): string {
  const type = accountType === "savings" ? "Savings" : accountType === "business" ? "Business" : "Checking";
  return `${type} ••••${last4}`;
}

/** 'yyyy-MM' → "November 2026". */
export function formatMonth(month: string): string {
  const m = /^(\d{4})-(\d{2})$/.exec(month);
  const names = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
  const name = m ? names[Number(m[2]) - 1] : undefined;
  return m && name ? `${name} ${m[1]}` : month;
}
