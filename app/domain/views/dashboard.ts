import type { LoanFundingNotice } from "./borrower-loan";
import type { ActionResult, Toast } from "~/domain/action-result";
import type { OfferView } from "~/domain/loan-offers";
import type { DraftSummary } from "./application-draft";

/**
 * What an applicant's dashboard shows, as plain data: server/applications/dashboard.server.ts returns these shapes and
 * the dashboard components render them (types only, so no component imports a server module).
 */

export type DashboardLoan = {
  id: string;
  status: string;
  approvedAmount: number;
  balance: number;
  monthlyPayment: number;
  interestRate: number;
  termMonths: number;
  approvalDate: string;
  /** The loan type of the application it was approved from. */
  loanType: string;
  /** What the borrower does next (app/domain/next-step.ts). */
  nextStep: string;
  /** Where the loan's funding stands (awaiting, sent, returned, cancelled), or null. */
  funding?: LoanFundingNotice | null;
};

export type DashboardApplication = {
  id: string;
  userId: string;
  status: string;
  loanType: string;
  requestedAmount: number;
  purpose: string;
  submittedAt: string;
  documents: { id: string; fileName: string; documentType: string }[];
  /** Messages from the lender the applicant has not read yet. */
  unreadMessages: number;
  /** What the applicant does next (app/domain/next-step.ts). */
  nextStep: string;
};

/** One open item of What We Need (requested, or rejected and to be answered again) on the dashboard. */
export type DashboardRequestItem = {
  id: string;
  applicationId: string;
  loanType: string;
  /** "Pay Stub", "Question"... */
  kindLabel: string;
  status: "requested" | "rejected";
  statusLabel: string;
  /** 'yyyy-MM-dd'. */
  dueDate: string;
  overdue: boolean;
};

export type Dashboard = {
  fullName: string;
  approvedLoans: DashboardLoan[];
  /** Loans paid in full, newest first. */
  paidOffLoans?: DashboardLoan[];
  applications: DashboardApplication[];
  /** Open request items across the applicant's applications under review, soonest due first. */
  whatWeNeed: DashboardRequestItem[];
  /** The loan offers on the applicant's applications, newest first, any status. */
  offers: OfferView[];
  /** Save and Finish Later drafts not yet submitted, oldest save first. */
  drafts?: DraftSummary[];
};

/** A 60-second download link to one of the applicant's own documents (the dashboard action's answer). */
export type OwnDocumentLink = { url: string; documentId: string; fileName: string; expiresAt: string };

/** /dashboard's answer to intent=document-link; `nonce` tells two answers apart. */
export type OwnDocumentLinkData = ActionResult<{ nonce: string }> & ({ ok: true; link: OwnDocumentLink } | { ok: false; toast: Toast });
