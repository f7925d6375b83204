import { REQUEST_DOCUMENT_KINDS } from "./conversation-enums";
import { joined } from "./joined";

/**
 * Enumerations and limits the database enforces with CHECK constraints.
 *
 * Pure constants, no I/O: browser code (forms, validation) imports them from here, and
 * app/server/platform/db/schema.server.ts builds its CHECK constraints from the same arrays, so the
 * form, the server validation and the database cannot drift apart. Changing a value here
 * requires a new migration (`npx drizzle-kit generate`).
 */

export const LOAN_TYPES = [
  "personal",
  "business",
  "private",
  "hard-money",
  "auto-loans",
  "debt-consolidation",
  "home-improvement",
] as const;
export type LoanType = (typeof LOAN_TYPES)[number];

/**
 * 'withdrawn': the applicant withdrew it while it was pending or under review. Not a decision of the
 * lender (Reg B 12 CFR 1002.9(e): no notice of action taken is owed), so it is not among the decided
 * statuses below; withdrawn_at and withdrawn_by record when and by whom.
 */
export const APPLICATION_STATUSES = ["pending", "under_review", "approved", "denied", "incomplete", "withdrawn"] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];

/** Statuses that end a review: reviewed_at must be set. 'incomplete': closed as incomplete (Reg B notice). */
export const DECIDED_APPLICATION_STATUSES = ["approved", "denied", "incomplete"] as const satisfies readonly ApplicationStatus[];

export const EMPLOYMENT_STATUSES = ["full-time", "part-time", "self-employed", "retired", "unemployed"] as const;
export type EmploymentStatus = (typeof EMPLOYMENT_STATUSES)[number];

export const BANK_ACCOUNT_TYPES = ["checking", "savings", "business"] as const;
export type BankAccountType = (typeof BANK_ACCOUNT_TYPES)[number];

/** Loan durations offered, in months. */
export const LOAN_DURATIONS = [6, 12, 18, 24, 36, 48, 60, 84, 120, 180, 240, 300, 360] as const;
export type LoanDuration = (typeof LOAN_DURATIONS)[number];

// Every public page loads this file without reading DOCUMENT_TYPES: as a pure call it leaves their
// bundle, and with it the conversation's list (kept in ./conversation-enums.ts for that reason).
export const DOCUMENT_TYPES = /* @__PURE__ */ joined(
  ["id_card_front", "id_card_back", "bank_statement_1", "bank_statement_2", "bank_statement_3", "utility_bill", "collateral_docs", "signature"] as const,
  // Uploaded in answer to a staff request (What We Need).
  REQUEST_DOCUMENT_KINDS,
);
export type DocumentType = (typeof DOCUMENT_TYPES)[number];


export const ALLOWED_MIME_TYPES = ["application/pdf", "image/jpeg", "image/png"] as const;
export type AllowedMimeType = (typeof ALLOWED_MIME_TYPES)[number];

export const TESTIMONIAL_STATUSES = ["pending", "approved", "rejected"] as const;
export type TestimonialStatus = (typeof TESTIMONIAL_STATUSES)[number];

/**
 * A loan's life: awaiting_funding (signed, its proceeds not yet settled in the borrower's account) →
 * active (funded: serviced) → paid_off | closed; or awaiting_funding → cancelled (never funded: the
 * agreement is void). `approved`: a loan recorded before offers were signed here.
 */
export const APPROVED_LOAN_STATUSES = ["awaiting_funding", "active", "approved", "paid_off", "closed", "cancelled", "charged_off", "settled"] as const;
export type ApprovedLoanStatus = (typeof APPROVED_LOAN_STATUSES)[number];

/**
 * Staff roles in user_roles (one per staff member). What each may do is decided by the
 * permission table in ./staff-permissions.ts, never by comparing role names in a route.
 */
export const USER_ROLES = ["admin", "loan_officer", "auditor"] as const;
export type UserRole = (typeof USER_ROLES)[number];

/** Download My Data: prepared in the background, then linked by e-mail for 24 hours. */
export const DATA_EXPORT_STATUSES = ["pending", "ready", "failed"] as const;
export type DataExportStatus = (typeof DATA_EXPORT_STATUSES)[number];

/** WebAuthn ceremonies: adding a passkey, signing in with one, or a staff second factor. */
export const WEBAUTHN_PURPOSES = ["register", "authenticate", "second-factor"] as const;
export type WebauthnPurpose = (typeof WEBAUTHN_PURPOSES)[number];

/** Four-eyes approval proposals: proposed → confirmed (the offer is made) or sent_back. */
export const APPROVAL_PROPOSAL_STATUSES = ["proposed", "confirmed", "sent_back"] as const;
export type ApprovalProposalStatus = (typeof APPROVAL_PROPOSAL_STATUSES)[number];

export const CONTACT_MESSAGE_STATUSES = ["new", "read", "archived"] as const;
export type ContactMessageStatus = (typeof CONTACT_MESSAGE_STATUSES)[number];

export const EMAIL_OUTBOX_STATUSES = ["pending", "sending", "sent", "failed"] as const;
export type EmailOutboxStatus = (typeof EMAIL_OUTBOX_STATUSES)[number];

/** The background jobs every server process runs on a timer (app/server/jobs), one name each in job_runs. */
export const JOB_NAMES = ["retention", "offer-expiry", "data-export", "servicing", "orphan-sweep"] as const;
export type JobName = (typeof JOB_NAMES)[number];

/** A run of a job: queued by an admin's Retry, running, then succeeded or failed (with the error). */
export const JOB_RUN_STATUSES = ["queued", "running", "succeeded", "failed"] as const;
export type JobRunStatus = (typeof JOB_RUN_STATUSES)[number];

/** 'change-email': a code sent to the new address before an account's e-mail changes. */
export const VERIFICATION_CODE_PURPOSES = ["sign-up", "change-email"] as const;
export type VerificationCodePurpose = (typeof VERIFICATION_CODE_PURPOSES)[number];

/** Limits the database enforces (the forms show friendlier messages first). */
export const LIMITS = {
  interestRateMin: 5.99,
  interestRateMax: 35.99,
  creditScoreMin: 300,
  creditScoreMax: 850,
  purposeMinLength: 10,
  purposeMaxLength: 500,
  /** 5 MB, the largest upload accepted. */
  maxDocumentBytes: 5 * 1024 * 1024,
  /** Wrong tries allowed on one e-mail verification code. */
  maxVerificationAttempts: 5,
  testimonialRatingMin: 1,
  testimonialRatingMax: 5,
  testimonialMaxLength: 2000,
} as const;

/** Narrows an unknown value to one of a constant list (for parsing query strings, form values). */
export function isOneOf<const T extends readonly (string | number)[]>(values: T, value: unknown): value is T[number] {
  return (values as readonly unknown[]).includes(value);
}
