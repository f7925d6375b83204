import type { ChargeOffPanelData, ProtectionsPanelData } from "./charge-off";
import type { StaffHardshipPanelData } from "./hardship";
import type { AccountRestrictionView, OpenLoanFlag } from "./ach-returns";
import type { AccountValidationPanelData } from "./account-validation";
import type { PageCursors } from "~/domain/paging";
import type { Allocation, InstallmentStatus, LedgerLine, NextInstallment, ServicingStatus } from "~/domain/loan-servicing";
import type { FundingStatus, LoanPaymentStatus, OriginationFeeHandling, PaymentMethod, PaymentSource } from "~/domain/servicing-enums";
import type { FundingChecklistItem } from "~/domain/funding-checklist";
import type { DelinquencyBucket } from "~/domain/delinquency";

/**
 * What the staff loan pages (/admin/loans, /admin/loans/:id) show, as plain data: the server module
 * app/server/loans/staff-loans.server.ts returns these shapes and the pages render them. Money in
 * integer cents, days as 'yyyy-MM-dd', instants as ISO strings. No bank numbers.
 */

/** The list's filters: everything, or one servicing status. */
export const LOAN_LIST_FILTERS = ["all", "current", "late", "paid_in_full"] as const;
export type LoanListFilter = (typeof LOAN_LIST_FILTERS)[number];

export const LOAN_LIST_FILTER_LABELS: Record<LoanListFilter, string> = { all: "All", current: "Current", late: "Late", paid_in_full: "Paid in Full" };

export type StaffLoanSummary = {
  id: string;
  reference: string;
  borrowerName: string;
  borrowerEmail: string;
  loanType: string;
  amountCents: number;
  balanceCents: number;
  nextDueDate: string | null;
  daysPastDue: number;
  /** The delinquency bucket (app/domain/delinquency.ts); null for a loan with nothing due (paid, cancelled). */
  bucket: DelinquencyBucket | null;
  bucketLabel: string | null;
  status: ServicingStatus;
  statusLabel: string;
};

export type StaffLoanList = {
  filter: LoanListFilter;
  q: string;
  page: number;
  pageCount: number;
  pageSize: number;
  /** Next/Previous tokens (decision 0050); null for a search, whose pages are numbered. */
  cursors: PageCursors | null;
  total: number;
  loans: StaffLoanSummary[];
  /** The days-past-due bucket shown (?bucket=), null for every one. */
  bucket: DelinquencyBucket | null;
  /** Why an unknown ?bucket= was set aside, or null. */
  bucketNotice: string | null;
  /** Loans not paid off, per bucket, today. */
  bucketCounts: Record<DelinquencyBucket, number>;
};

export type StaffLedgerPayment = {
  id: string;
  status: LoanPaymentStatus;
  statusLabel: string;
  method: PaymentMethod;
  methodLabel: string;
  source: PaymentSource;
  reference: string;
  amountCents: number;
  receivedOn: string | null;
  createdAt: string;
  reversalReason: string | null;
  returnCode: string | null;
  cancelReason: string | null;
  /** The allocation of a posted payment (null for pending, reversed and returned ones). */
  allocation: Omit<Allocation, "paymentId" | "receivedOn" | "amountCents"> | null;
};

export type StaffLoanFee = { id: string; kind: string; installmentNumber: number; amountCents: number; assessedOn: string };

export type StaffLoanPage = {
  /** The Hardship panel (hardship-views.server.ts); absent on pages built without it. */
  hardship?: StaffHardshipPanelData | null;
  today: string;
  loan: {
    id: string;
    reference: string;
    applicationId: string;
    borrowerName: string;
    borrowerEmail: string;
    loanType: string;
    amountCents: number;
    noteRatePercent: string;
    termMonths: number;
    paymentCents: number;
    startDate: string;
    maturityDate: string | null;
    status: ServicingStatus;
    statusLabel: string;
    paidOffAt: string | null;
  };
  summary: {
    principalCents: number;
    interestAccruedCents: number;
    feesDueCents: number;
    payoffTodayCents: number;
    nextInstallment: NextInstallment | null;
    daysPastDue: number;
  };
  installments: InstallmentStatus[];
  payments: StaffLedgerPayment[];
  /** The ledger in posting order, the disbursement first, with the principal balance after each row. */
  ledger: LedgerLine<StaffLedgerPayment>[];
  fees: StaffLoanFee[];
  /** The borrower debit pending on the loan (Record Payment warns and asks for a confirmation), with the warning's words. */
  pendingDebit: { amountCents: number; sent: boolean; warning: string } | null;
  /** Debits the bank collected after the loan was paid off: owed back to the borrower. */
  refundsDue: { paymentId: string; amountCents: number; receivedOn: string; reference: string }[];
  /** The account the borrower's debits come from (masked), changed by the borrower's Change Bank Account. */
  paymentAccount: { label: string; holder: string; bankName: string } | null;
  funding: StaffLoanFunding;
  /** The payment account's validation (prenote or a staff-recorded method) and Record Validation. */
  accountValidation: AccountValidationPanelData | null;
  /** Open flags (an unauthorised return) staff resolve with a note. */
  flags: OpenLoanFlag[];
  /** The borrower's bank accounts restricted after a return. */
  restrictions: AccountRestrictionView[];
  /** Charge Off, its four-eyes approval, recoveries and Record Settlement (loaded by the route). */
  chargeOff?: ChargeOffPanelData;
  /** Protected borrowers: servicemember (SCRA cap) and bankruptcy (automatic stay) (loaded by the route). */
  protections?: ProtectionsPanelData;
};

/** The proceeds' ACH credit as staff see it (the live one, else the last one). Names, not ids; the account masked. */
export type StaffFundingCredit = {
  id: string;
  status: FundingStatus;
  statusLabel: string;
  amountCents: number;
  secCode: "PPD" | "CCD";
  account: string;
  preparedBy: string | null;
  preparedAt: string;
  releasedBy: string | null;
  releasedAt: string | null;
  /** The ACH file's effective entry date, once it is in a file. */
  effectiveDate: string | null;
  settledOn: string | null;
  returnedOn: string | null;
  /** "R03 No Account/Unable to Locate Account". */
  returnText: string | null;
};

/** The staff loan page's funding: the stored loan status, the Funding Checklist and the credit, and what this viewer may do. */
export type StaffLoanFunding = {
  /** The stored status ('awaiting_funding', 'active', 'cancelled', …) and its label. */
  loanStatus: string;
  loanStatusLabel: string;
  checklist: FundingChecklistItem[];
  /** sha256 of the checklist's keys and met flags: posted with Fund Loan. */
  fingerprint: string;
  allMet: boolean;
  feeCents: number;
  feeHandling: OriginationFeeHandling;
  netProceedsCents: number;
  /** At or above the four-eyes threshold another staff member must release the credit. */
  fourEyes: boolean;
  credit: StaffFundingCredit | null;
  /** Fund Loan can be pressed (awaiting funding, no live credit, every item met). */
  canFund: boolean;
  /** A prepared credit this viewer may release (they did not prepare it). */
  canRelease: boolean;
  /** A prepared or released credit not yet in a file. */
  canCancelFunding: boolean;
  /** A credit in a file, not settled or returned yet. */
  canMarkSettledOrReturned: boolean;
  /** The first day Cancel Loan is allowed ('yyyy-MM-dd'), and whether it is today. */
  cancellableFrom: string;
  canCancelLoan: boolean;
  /** Record Fee Collected is offered (awaiting funding, fee deducted, no live credit). */
  canRecordFee: boolean;
  /** The application's ID documents, for Accept ID Document. */
  idDocuments: { id: string; label: string; fileName: string; accepted: boolean }[];
  fundedOn: string | null;
  cancelled: { at: string; by: string | null; reason: string } | null;
};
