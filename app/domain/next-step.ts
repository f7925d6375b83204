import { APPLICATION_STATUSES, APPROVED_LOAN_STATUSES, type ApplicationStatus, type ApprovedLoanStatus } from "./enums";
import { OFFER_STATUSES, type OfferStatus } from "./loan-offers";

/**
 * The "Next step" line the borrower reads under each draft, application and loan on the dashboard: one
 * pure mapping from where the thing stands to what the borrower (or we) do next, so no status shows a
 * step that is no longer true (a signed borrower being told to wait for a specialist to sign). Each
 * status of loan_applications, loan_offers and approved_loans has its own text in the tables below,
 * typed as Records over the schema's status lists: a status added to app/domain/enums.ts or
 * OFFER_STATUSES without a text here does not compile, and the unit test walks every list.
 */

/** Business constant (docs/requirements.md §10): how long funding takes once everything is complete. */
export const FUNDING_BUSINESS_DAYS = "1-3";

/** What the dashboard knows about the one live or last offer of an approved application. */
export type NextStepOffer = { status: OfferStatus; isCounteroffer: boolean };

export type NextStepSubject =
  /** Save and Finish Later: not submitted yet. */
  | { kind: "draft" }
  /** A submitted application; `openRequests`: items under What We Need still to answer. */
  | { kind: "application"; status: ApplicationStatus; offer: NextStepOffer | null; openRequests: number }
  /** A loan (approved_loans); `signedInPortal`: made from an offer signed here (null offer id: made before offers existed). */
  | { kind: "loan"; status: ApprovedLoanStatus; signedInPortal: boolean };

export const DRAFT_NEXT_STEP = "Finish your application and submit it; we start reviewing once it is submitted.";

/** Applications before and after a decision, when no offer decides the step. */
export const APPLICATION_NEXT_STEPS: Record<ApplicationStatus, string> = {
  pending: "Nothing to do for now: a loan officer will review your application and write to you here if anything is needed.",
  under_review: "A loan officer is reviewing your application; we will write to you here if we need anything else.",
  approved: "Your application is approved; we are preparing your loan offer and will e-mail you when it is ready to review and sign.",
  denied: "We could not approve this application; the notice we sent you explains why. You may apply again at any time.",
  incomplete: "This application was closed as incomplete because what we asked for did not arrive. You may apply again at any time.",
  withdrawn: "You withdrew this application; nothing more to do. You may apply again at any time.",
};

/** Under review with documents or answers requested. */
export const DOCUMENTS_REQUESTED_NEXT_STEP = "Send us what we asked for under What We Need so we can continue your review.";

/** An approved application, by the state of its offer. */
export const OFFER_NEXT_STEPS: Record<OfferStatus, string> = {
  offered: "Review your loan offer and sign it before it expires; or decline it if you do not want the loan.",
  signed: `Your loan agreement is signed; funds are credited to your account within ${FUNDING_BUSINESS_DAYS} business days.`,
  declined: "You declined the loan offer; nothing more to do. You may apply again at any time.",
  expired: "Your loan offer expired before it was signed. Send us a message if you would still like the loan.",
  withdrawn: "We withdrew the loan offer; we will write to you here about what happens next.",
};

/** An approved application whose open offer is a counteroffer (other terms than requested). */
export const COUNTEROFFER_NEXT_STEP = "Review our counteroffer (its terms differ from what you asked for) and sign it before it expires, or decline it.";

/** Loans, by their status. `approved`: a loan recorded before offers were signed here (a specialist still signs with the borrower). */
export const LOAN_NEXT_STEPS: Record<ApprovedLoanStatus, string> = {
  awaiting_funding: `Your loan agreement is signed. We send the funds once the last checks are complete; they reach your account within ${FUNDING_BUSINESS_DAYS} business days of sending, and the loan page shows when they were sent.`,
  active: `Your loan agreement is signed. Funds are credited to your account within ${FUNDING_BUSINESS_DAYS} business days; then pay each installment by its due date (your schedule is on the loan page).`,
  approved: `A loan specialist will contact you to sign your loan terms; funds follow within ${FUNDING_BUSINESS_DAYS} business days of completion.`,
  paid_off: "Your loan is paid in full; nothing more to do. Your paid-in-full letter is on the loan page.",
  closed: "This loan is closed; nothing more to do.",
  cancelled: "This loan was cancelled before it was funded: the agreement is void and nothing is owed. The loan page says why.",
  charged_off: "This loan was charged off: the balance is still owed. Payments are still accepted and reduce it; contact us to arrange them.",
  settled: "This loan was settled for less than its balance; nothing more is owed. The loan page shows the amount forgiven.",
};

/** A loan still marked approved but made from an offer signed here: the signing is done, funding follows. */
export const SIGNED_LOAN_NEXT_STEP = OFFER_NEXT_STEPS.signed;

export function nextStep(subject: NextStepSubject): string {
  switch (subject.kind) {
    case "draft":
      return DRAFT_NEXT_STEP;
    case "loan":
      return subject.status === "approved" && subject.signedInPortal ? SIGNED_LOAN_NEXT_STEP : LOAN_NEXT_STEPS[subject.status];
    case "application": {
      const { status, offer, openRequests } = subject;
      if ((status === "pending" || status === "under_review") && openRequests > 0) return DOCUMENTS_REQUESTED_NEXT_STEP;
      if (status === "approved" && offer) return offer.status === "offered" && offer.isCounteroffer ? COUNTEROFFER_NEXT_STEP : OFFER_NEXT_STEPS[offer.status];
      return APPLICATION_NEXT_STEPS[status];
    }
  }
}

/** Every status list the mapping covers (the unit test walks them). */
export const NEXT_STEP_STATUS_LISTS = { application: APPLICATION_STATUSES, offer: OFFER_STATUSES, loan: APPROVED_LOAN_STATUSES } as const;
