import type { ApplicationEvent } from "~/domain/application-lifecycle";
import type { AgreementCertificateView, OfferView } from "~/domain/loan-offers";
import type { Permission } from "~/domain/staff-permissions";
import type { AdminApplication } from "./admin-applications";
import type { ConversationView, RequestItemView, TimelineEntry } from "./application-page";
import type { SanctionsPanelView } from "./sanctions-panel";

/**
 * What the staff application page (/admin/applications/:id) shows, as plain data: every field
 * the applicant entered, the documents, the bank accounts (masked), the internal notes, the timeline and
 * the two panels. Sensitive values are never part of it: the SSN is only "on file or not" and bank
 * numbers their last digits; revealing one goes through the audited /api/admin/reveal.
 */

export type AdminApplicationDocument = {
  id: string;
  fileName: string;
  documentType: string;
  fileSize: number;
  mimeType: string;
  uploadedAt: string;
  /** Uploaded in answer to a request (What We Need) rather than with the wizard. */
  requestItemId: string | null;
};

export type AdminApplicationBankAccount = {
  id: string;
  bankName: string;
  accountHolderName: string;
  accountType: string;
  isPrimary: boolean;
  accountNumberLast4: string;
  routingNumberLast2: string;
};

export type AdminApplicationDetail = {
  /** The list card's shape: the approve and deny dialogs take it as is. */
  summary: AdminApplication;
  loan: {
    propertyAddress: string | null;
    businessName: string | null;
    businessYears: number | null;
  };
  personal: {
    firstName: string;
    middleInitial: string | null;
    lastName: string;
    dateOfBirth: string;
    email: string;
    phone: string;
    addressLine1: string;
    addressLine2: string | null;
    city: string;
    state: string;
    zipCode: string;
    /** Whether an SSN is on file (the value itself only through the audited reveal). */
    hasSsn: boolean;
  };
  employment: {
    employmentStatus: string;
    employerName: string;
    jobTitle: string | null;
    yearsEmployed: number | null;
    monthlyIncome: number;
    annualIncome: number | null;
    creditScore: number | null;
    hasOutstandingLoans: boolean;
    monthlyDebts: number | null;
    authorizeCreditReport: boolean;
  };
  bankAccounts: AdminApplicationBankAccount[];
  documents: AdminApplicationDocument[];
  /** A denied application: where the notice said its information came from (one line); else null. */
  denialSource: string | null;
  /** The lifecycle's events this status allows (what the page offers). */
  allowedEvents: ApplicationEvent[];
  /** An open request item's due date has passed: Close as Incomplete is allowed. */
  closeIncompleteAvailable: boolean;
  timeline: TimelineEntry[];
  requestItems: RequestItemView[];
  conversation: ConversationView;
  /** The loan offers made on it, newest first, any status. */
  offers: OfferView[];
  /** The signing certificate of its signed offer, if any. */
  certificate: AgreementCertificateView | null;
  /** Four-eyes approval: the proposal waiting for confirmation, the last one sent back. */
  approval: ApprovalPanelView;
  /** Assignment: the assigned officer, the history, the Reassign choices. */
  assignment: AssignmentPanelView;
  /** Sanctions screening: the state, the last screening, the potential matches and their decisions. */
  sanctions: SanctionsPanelView;
};

export type ApprovalProposalView = {
  id: string;
  status: "proposed" | "confirmed" | "sent_back";
  /** Dollars. */
  approvedAmount: number;
  interestRate: number;
  termMonths: number;
  originationFeePercent: number;
  counterofferReasons: string[];
  proposedByName: string;
  proposedAt: string;
  /** The viewer proposed it: they may not confirm it (the server refuses too). */
  mine: boolean;
  decidedByName: string | null;
  decidedAt: string | null;
  comment: string | null;
};

export type ApprovalPanelView = {
  open: ApprovalProposalView | null;
  lastSentBack: ApprovalProposalView | null;
  /** FOUR_EYES_THRESHOLD in cents. */
  thresholdCents: number;
};

export type StaffOption = { id: string; name: string };

export type AssignmentPanelView = {
  assignedTo: StaffOption | null;
  assignedAt: string | null;
  /** Newest first; assignedToName null: unassigned. */
  history: { id: string; assignedToName: string | null; assignedByName: string; at: string }[];
  /** Active staff who may work applications. */
  staff: StaffOption[];
};

export type AdminApplicationPageData = {
  application: AdminApplicationDetail;
  /** The approve dialog's default Origination Fee (%) (ORIGINATION_FEE_PERCENT). */
  originationFeePercent: number;
  /** The highest APR an offer may carry (MAX_APR): the approve dialog refuses more, as the server does. */
  maxAprPercent: number;
  /** The viewer's permissions: controls their role may not use are hidden. */
  permissions: Record<Permission, boolean>;
  /** The signed-in staff member (who proposed, Assign to Me). */
  viewerId: string;
};
