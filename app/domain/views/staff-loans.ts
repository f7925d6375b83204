import type { PageCursors } from "~/domain/paging";
import type { Allocation, InstallmentStatus, LedgerLine, NextInstallment, ServicingStatus } from "~/domain/loan-servicing";
import type { LoanPaymentStatus, PaymentMethod, PaymentSource } from "~/domain/servicing-enums";

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
};
