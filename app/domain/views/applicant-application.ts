import type { NoticePart } from "~/domain/adverse-action";
import type { OfferView } from "~/domain/loan-offers";
import type { ConversationView, RequestItemView, TimelineEntry } from "./application-page";

/**
 * What the applicant's application page (/dashboard/applications/:id) shows, as plain data: built by
 * server/applications/applicant-application.server.ts, rendered by the route's component. Never a sensitive value
 * (SSN, bank numbers), never a staff note or a staff member's name.
 */

export type ApplicantApplicationSummary = {
  id: string;
  status: string;
  loanType: string;
  requestedAmount: number;
  purpose: string;
  /** ISO instant. */
  submittedAt: string;
};

/** A document on file for the application (the wizard's and answers to requests), downloadable by its owner. */
export type ApplicantApplicationDocument = { id: string; fileName: string; documentType: string; uploadedAt: string };

export type ApplicantApplicationPage = {
  application: ApplicantApplicationSummary;
  documents: ApplicantApplicationDocument[];
  timeline: TimelineEntry[];
  requestItems: RequestItemView[];
  conversation: ConversationView;
  /** Still under review: requests can be answered and messages written. */
  open: boolean;
  /** Withdraw Application is offered (pending or under review). */
  withdrawable: boolean;
  /** When the applicant withdrew it (ISO instant), or null. */
  withdrawnAt: string | null;
  /** The application's loan offers, newest first, any status. */
  offers: OfferView[];
  /** A denied application: the principal reasons and where the information came from, as the notice of action taken says them; else null. */
  denial: { reasons: string[]; source: NoticePart[] } | null;
};
