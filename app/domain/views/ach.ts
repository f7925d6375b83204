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

/** A prenote's validation and the account it announces an entry to, as the ACH page names it. */
type PrenoteAccount = {
  validationId: string;
  /** The loan of the account's application, when there is one (for the link). */
  loanId: string | null;
  borrower: string;
  accountMasked: string | null;
  secCode: "PPD" | "CCD" | "WEB";
  direction: "credit" | "debit";
};

/** A zero-dollar prenote in a file: it validates the account when no return arrives within the wait. */
export type BatchPrenote = PrenoteAccount & {
  /** pending, sent, validated (method prenote, or another method staff recorded meanwhile) or failed. */
  status: string;
  method: string;
  /** A sent prenote: the day it counts as validated. */
  readyOn: string | null;
  validatedAt: string | null;
  returnCode: string | null;
  returnedOn: string | null;
};

/** A prenote queued for the next file, with why the file would leave it out (or null). */
export type PendingPrenote = PrenoteAccount & {
  queuedAt: string;
  skipReason: string | null;
};

/** A loan's proceeds credited in a file (read-only here: the loan page follows the funding). */
export type BatchCredit = {
  fundingId: string;
  loanId: string;
  borrower: string;
  amountCents: number;
  accountMasked: string | null;
  secCode: "PPD" | "CCD";
  status: string;
  settledOn: string | null;
  returnedOn: string | null;
  returnCode: string | null;
};

export type AchBatchSummary = {
  id: string;
  fileName: string;
  createdAt: string;
  createdBy: string | null;
  entryCount: number;
  /** The debits' total. */
  totalCents: number;
  /** The credits' total (loan proceeds). */
  creditTotalCents: number;
  effectiveDate: string;
  /** The borrower debits. */
  entries: BatchEntry[];
  prenotes: BatchPrenote[];
  credits: BatchCredit[];
};

/** A debit the bank collected after the loan was paid off: the lender owes it back. */
export type RefundDue = { paymentId: string; loanId: string; borrower: string; amountCents: number; receivedOn: string; reference: string };

export type AchPageData = { pending: PendingDebit[]; pendingPrenotes: PendingPrenote[]; refundsDue: RefundDue[]; batches: AchBatchSummary[]; today: string; nextEffectiveDate: string };
