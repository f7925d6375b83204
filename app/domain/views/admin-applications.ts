import type { PageCursors } from "~/domain/paging";
import type { OfferStatus } from "~/domain/loan-offers";
import type { ReviewTab } from "~/domain/validation/review";

/**
 * What the admin review list (/admin) shows, as plain data: server/applications/staff-applications.server.ts returns
 * these shapes and the page components render them (types only, so no component imports a server module).
 */

export type AdminApplication = {
  id: string;
  userId: string;
  status: string;
  applicantName: string;
  email: string;
  phone: string;
  loanType: string;
  requestedAmount: number;
  desiredInterestRate: number;
  loanDuration: number;
  purpose: string;
  monthlyIncome: number;
  annualIncome: number | null;
  creditScore: number | null;
  employmentStatus: string;
  submittedAt: string;
  reviewedAt: string | null;
  decisionReasons: string[];
  notes: string | null;
  /** Messages from the applicant this admin has not read. */
  unreadMessages: number;
  /** The loan, once the applicant has signed the offer's agreement (approval alone makes no loan). */
  approvedLoan: { approvedAmount: number; interestRate: number; termMonths: number; monthlyPayment: number } | null;
  /** The application's latest loan offer, any status. */
  latestOffer: AdminOfferSummary | null;
  /** The assigned officer, or null when unassigned. */
  assignedTo: { id: string; name: string } | null;
  /** The Reg B clock: when flagged (complete 25 days, undecided), the date the notice is due; else null. */
  regBDueAt: string | null;
  /** An approval proposed and waiting for a second staff member's confirmation; `mine`: the viewer proposed it. */
  awaitingConfirmation?: { mine: boolean } | null;
};

/** What a card shows of the latest offer: its status, whether it is a Counteroffer, and its terms. */
export type AdminOfferSummary = {
  status: OfferStatus;
  statusLabel: string;
  isCounteroffer: boolean;
  amountCents: number;
  /** Percent as disclosed ("8.50"). */
  noteRatePercent: string;
  termMonths: number;
  paymentCents: number;
};

export type ApplicationCounts = Record<ReviewTab, number>;

export type AdminApplicationList = {
  tab: ReviewTab;
  /** 1-based, clamped to the last page. */
  page: number;
  pageCount: number;
  pageSize: number;
  /** Next/Previous tokens (decision 0050). */
  cursors: PageCursors;
  counts: ApplicationCounts;
  applications: AdminApplication[];
  /** My Queue: only the applications assigned to the viewer (the counts are theirs too). */
  mine: boolean;
  /** The Awaiting Confirmation list is shown (instead of a status tab). */
  awaiting: boolean;
  /**
   * Approvals waiting for a second staff member: all of them (the tab's count), and those the viewer
   * did not propose (the ones they may confirm, when their role works applications).
   */
  awaitingConfirmation: { total: number; notMine: number };
};
