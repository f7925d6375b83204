import { APPLICATION_STATUSES, APPROVED_LOAN_STATUSES, BANK_ACCOUNT_TYPES, EMPLOYMENT_STATUSES, isOneOf, LOAN_TYPES, type ApplicationStatus, type JobName, type ApprovedLoanStatus, type BankAccountType, type EmploymentStatus, type LoanType } from "./enums";
import { REQUEST_ITEM_KINDS, REQUEST_ITEM_STATUSES, APPLICATION_EVENT_KINDS, type ApplicationEventKind, type RequestItemKind, type RequestItemStatus } from "./conversation-enums";

/**
 * The words the product shows for its enumerations: one label per value, used by the wizard, the
 * dashboard, the admin pages and the e-mails alike (tests/unit/labels.test.ts checks that every value
 * has one, and that no other module keeps its own map). A loan of one type is singular
 * ("Personal Loan"); the marketing pages' product titles ("Personal Loans") are content, not labels.
 * Pure, no I/O.
 */

export const LOAN_TYPE_LABELS: Record<LoanType, string> = {
  personal: "Personal Loan",
  business: "Business Loan",
  private: "Private Loan",
  "hard-money": "Hard Money / Bridge Loan",
  "auto-loans": "Auto Loan",
  "debt-consolidation": "Debt Consolidation Loan",
  "home-improvement": "Home Improvement Loan",
};

/** The wizard's wording, which is what applicants chose from. */
export const EMPLOYMENT_LABELS: Record<EmploymentStatus, string> = {
  "full-time": "Full-time",
  "part-time": "Part-time",
  "self-employed": "Self-employed",
  retired: "Retired",
  unemployed: "Unemployed",
};

export const ACCOUNT_TYPE_LABELS: Record<BankAccountType, string> = {
  checking: "Checking",
  savings: "Savings",
  business: "Business",
};

export const APPLICATION_STATUS_LABELS: Record<ApplicationStatus, string> = {
  pending: "Pending",
  under_review: "Under Review",
  approved: "Approved",
  denied: "Denied",
  incomplete: "Closed as Incomplete",
  withdrawn: "Withdrawn",
};

/** What staff can ask for (the Request Documents form and the What We Need list). */
export const REQUEST_ITEM_KIND_LABELS: Record<RequestItemKind, string> = {
  id_document: "ID",
  bank_statement: "Bank Statement",
  pay_stub: "Pay Stub",
  tax_return: "Tax Return",
  proof_of_address: "Proof of Address",
  business_license: "Business License",
  other_document: "Other Document",
  question: "Question",
};

export const REQUEST_ITEM_STATUS_LABELS: Record<RequestItemStatus, string> = {
  requested: "Requested",
  received: "Received (In Review)",
  accepted: "Accepted",
  rejected: "Rejected",
};

/** The Application Timeline's entry titles. */
export const APPLICATION_EVENT_LABELS: Record<ApplicationEventKind, string> = {
  submitted: "Submitted",
  review_started: "Under Review",
  documents_requested: "Documents Requested",
  document_received: "Document Received",
  reply_received: "Reply Received",
  document_accepted: "Document Accepted",
  document_rejected: "Document Rejected",
  message: "Message",
  note: "Internal Note",
  approved: "Approved",
  denied: "Denied",
  closed_incomplete: "Closed as Incomplete",
  withdrawn: "Withdrawn by the Applicant",
  offer_made: "Loan Offer Made",
  offer_withdrawn: "Offer Withdrawn",
  offer_declined: "Offer Declined",
  offer_expired: "Offer Expired",
  esign_consented: "E-SIGN Consent Given",
  esign_withdrawn: "E-SIGN Consent Withdrawn",
  agreement_signed: "Loan Agreement Signed",
  loan_funded: "Loan Funded",
  funds_returned: "Loan Funds Returned",
  loan_cancelled: "Loan Cancelled",
  autopay_on: "Autopay Set Up",
  autopay_changed: "Autopay Changed",
  autopay_off: "Autopay Off",
  payment_returned: "Payment Returned",
  payment_retry: "Payment Retry Scheduled",
  hardship_requested: "Help with Payments Requested",
  plan_offered: "Hardship Plan Offered",
  plan_signed: "Hardship Plan Signed",
  plan_declined: "Hardship Plan Declined",
  plan_withdrawn: "Hardship Plan Withdrawn",
  loan_charged_off: "Loan Charged Off",
  loan_settled: "Loan Settled",
  approval_proposed: "Approval Proposed",
  approval_sent_back: "Approval Sent Back",
  assigned: "Assigned",
};

export function requestItemKindLabel(kind: string): string {
  return isOneOf(REQUEST_ITEM_KINDS, kind) ? REQUEST_ITEM_KIND_LABELS[kind] : titleCase(kind);
}

export function requestItemStatusLabel(status: string): string {
  return isOneOf(REQUEST_ITEM_STATUSES, status) ? REQUEST_ITEM_STATUS_LABELS[status] : titleCase(status);
}

export function applicationEventLabel(kind: string): string {
  return isOneOf(APPLICATION_EVENT_KINDS, kind) ? APPLICATION_EVENT_LABELS[kind] : titleCase(kind);
}

export const APPROVED_LOAN_STATUS_LABELS: Record<ApprovedLoanStatus, string> = {
  awaiting_funding: "Awaiting Funding",
  active: "Active",
  approved: "Approved",
  paid_off: "Paid Off",
  closed: "Closed",
  cancelled: "Cancelled",
  charged_off: "Charged Off",
  settled: "Settled",
};

/** "some_type" → "Some Type", "hard-money" → "Hard Money": how a value without a label is shown. */
export function titleCase(value: string): string {
  return value
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join(" ");
}

/** "Personal Loan" for "personal"; an unknown type shows as written, tidied ("some_type" → "Some Type"). */
export function loanTypeLabel(loanType: string): string {
  return isOneOf(LOAN_TYPES, loanType) ? LOAN_TYPE_LABELS[loanType] : titleCase(loanType);
}

/** "Full-time" for "full-time"; an unknown value as stored. */
export function employmentLabel(status: string): string {
  return isOneOf(EMPLOYMENT_STATUSES, status) ? EMPLOYMENT_LABELS[status] : status;
}

/** "Checking" for "checking"; an unknown value tidied. */
export function accountTypeLabel(type: string): string {
  return isOneOf(BANK_ACCOUNT_TYPES, type) ? ACCOUNT_TYPE_LABELS[type] : titleCase(type);
}

/** "Under Review" for under_review; any status, known or not, gets a readable label. */
export function applicationStatusLabel(status: string): string {
  return isOneOf(APPLICATION_STATUSES, status) ? APPLICATION_STATUS_LABELS[status] : titleCase(status) || "Unknown";
}

/** "Paid Off" for paid_off; any status, known or not, gets a readable label. */
export function approvedLoanStatusLabel(status: string): string {
  return isOneOf(APPROVED_LOAN_STATUSES, status) ? APPROVED_LOAN_STATUS_LABELS[status] : titleCase(status) || "Unknown";
}

// A loan term's words live with the formats: the home page's calculator needs only this one, and
// loading every label map for it cost each first visit half a kilobyte.
export { termLabel } from "~/domain/formats";

/**
 * The rate an applicant asks for, named as the specification names it ("desired interest rate"), the
 * same on step 2, the review and the staff's application page: it is not an APR (no fees are in it).
 */
export const DESIRED_RATE_LABEL = "Desired Interest Rate";

/**
 * The income an applicant stated, labelled as given: the wizard requires a monthly income and makes
 * the annual one optional, so a card showing "Annual Income" alone read "—" for most applicants. The
 * annual figure when given (what the lending rules and the spec's card name), else the monthly one.
 */
export function statedIncome(income: { monthlyIncome: number; annualIncome: number | null }): { label: "Annual Income" | "Monthly Income"; amount: number } {
  return income.annualIncome !== null ? { label: "Annual Income", amount: income.annualIncome } : { label: "Monthly Income", amount: income.monthlyIncome };
}

/** The background jobs as the monitoring page's Jobs section names them. */
export const JOB_LABELS: Record<JobName, string> = {
  retention: "Records retention",
  "offer-expiry": "Offer expiry",
  "data-export": "Data exports",
  servicing: "Loan servicing",
  "orphan-sweep": "Storage orphan sweep",
};
