/**
 * What the ACH page (/admin/ach) shows, as plain data: app/server/loans/ach-batches.server.ts returns these
 * shapes and the page renders them. Money in integer cents, days as 'yyyy-MM-dd', instants as ISO strings.
 */

export type PendingDebit = {
  paymentId: string;
  loanId: string;
  borrower: string;
  amountCents: number;
  /** "••••1234", or null when the payment has no bank account on file any more. */
  accountMasked: string | null;
  authorizedAt: string | null;
  /** Why the next file would leave it out, or null when it would be sent. */
  skipReason: string | null;
};

export type BatchEntry = {
  paymentId: string;
  loanId: string;
  borrower: string;
  amountCents: number;
  accountMasked: string | null;
  status: string;
  receivedOn: string | null;
  returnCode: string | null;
  returnedOn: string | null;
  refundedOn: string | null;
};

export type AchBatchSummary = {
  id: string;
  fileName: string;
  createdAt: string;
  createdBy: string | null;
  entryCount: number;
  totalCents: number;
  effectiveDate: string;
  entries: BatchEntry[];
};

/** A debit the bank collected after the loan was paid off: the lender owes it back. */
export type RefundDue = { paymentId: string; loanId: string; borrower: string; amountCents: number; receivedOn: string; reference: string };

export type AchPageData = { pending: PendingDebit[]; refundsDue: RefundDue[]; batches: AchBatchSummary[]; today: string; nextEffectiveDate: string };
