/**
 * The enumerations of loan servicing, shared by forms, labels and the database's CHECK
 * constraints (app/server/platform/db/schema.server.ts). Apart from ./enums.ts, which every public page loads.
 */

import { labelledEnum } from "./labelled-enum";

/**
 * pending (a borrower's ACH debit not settled yet) → posted → reversed; or pending → returned; or
 * pending → cancelled (never sent: Cancel Debit, or the loan was paid off first); or pending →
 * refund_due → refunded (the bank collected it after the loan was paid off: never posted, owed back).
 */
export const { values: LOAN_PAYMENT_STATUSES, labels: LOAN_PAYMENT_STATUS_LABELS } = labelledEnum({
  pending: "Pending",
  posted: "Posted",
  reversed: "Reversed",
  returned: "Returned",
  cancelled: "Cancelled",
  refund_due: "Refund Due",
  refunded: "Refunded",
});
export type LoanPaymentStatus = (typeof LOAN_PAYMENT_STATUSES)[number];

export const { values: PAYMENT_METHODS, labels: PAYMENT_METHOD_LABELS } = labelledEnum({ ach: "ACH", wire: "Wire", check: "Check" });
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** Who started the payment: the borrower (Make a Payment) or staff (Record Payment). */
export const PAYMENT_SOURCES = ["borrower", "staff"] as const;
export type PaymentSource = (typeof PAYMENT_SOURCES)[number];

/** What the borrower chose to pay: the next installment, an amount of their choosing, or the payoff. */
export const PAYMENT_CHOICES = ["installment", "amount", "payoff"] as const;
export type PaymentChoice = (typeof PAYMENT_CHOICES)[number];

/** A late fee (at most once per installment) or a returned-payment fee (only when the loan's terms have one). */
export const LOAN_FEE_KINDS = ["late_fee", "returned_payment_fee"] as const;
export type LoanFeeKind = (typeof LOAN_FEE_KINDS)[number];

/** autopay_amount: the notice that an autopay debit's amount differs from the last one (Reg E 1005.10(d)). */
/** collections_15/30/60: the collections notices at 15, 30 and 60 days past due (one each per installment). */
export const SERVICING_NOTICE_KINDS = ["reminder", "late_notice", "autopay_amount", "collections_15", "collections_30", "collections_60"] as const;
export type ServicingNoticeKind = (typeof SERVICING_NOTICE_KINDS)[number];

/** NACHA return codes staff choose from when a debit comes back (the common ones for consumer debits). */
export const ACH_RETURN_CODES = [
  { code: "R01", label: "Insufficient Funds" },
  { code: "R02", label: "Account Closed" },
  { code: "R03", label: "No Account/Unable to Locate Account" },
  { code: "R04", label: "Invalid Account Number Structure" },
  { code: "R05", label: "Unauthorized Debit to Consumer Account Using Corporate SEC Code" },
  { code: "R07", label: "Authorization Revoked by Customer" },
  { code: "R08", label: "Payment Stopped" },
  { code: "R09", label: "Uncollected Funds" },
  { code: "R10", label: "Customer Advises Not Authorized" },
  { code: "R11", label: "Customer Advises Entry Not in Accordance with the Terms of the Authorization" },
  { code: "R16", label: "Account Frozen" },
  { code: "R20", label: "Non-Transaction Account" },
  { code: "R29", label: "Corporate Customer Advises Not Authorized" },
] as const;

/**
 * The ACH credit of a loan's net proceeds: prepared (Fund Loan; at or above the four-eyes threshold it
 * waits for another staff member's Release Funds) → released (goes in the next ACH file) → sent (in a
 * file) → settled (the loan is funded: active) or returned (the bank sent it back: the loan awaits
 * funding again); a prepared or released credit not yet in a file can be cancelled.
 */
export const { values: FUNDING_STATUSES, labels: FUNDING_STATUS_LABELS } = labelledEnum({
  prepared: "Awaiting Release",
  released: "Released",
  sent: "Sent",
  settled: "Settled",
  returned: "Returned",
  cancelled: "Cancelled",
});
export type FundingStatus = (typeof FUNDING_STATUSES)[number];
/** The funding statuses that hold the loan's one live credit (the unique index allows one). */
export const LIVE_FUNDING_STATUSES = ["prepared", "released", "sent", "settled"] as const satisfies readonly FundingStatus[];

/** How the origination fee is satisfied: deducted from the proceeds (the default) or collected separately. */
export const { values: ORIGINATION_FEE_HANDLINGS, labels: ORIGINATION_FEE_HANDLING_LABELS } = labelledEnum({
  deducted: "Deducted from the proceeds",
  collected: "Collected",
});
export type OriginationFeeHandling = (typeof ORIGINATION_FEE_HANDLINGS)[number];

/**
 * A bank account's validation before its first debit or credit: a zero-dollar prenote (pending → sent
 * in an ACH file → validated when no return came within the wait, or failed on a return), or a method
 * staff record with a reference (validated at once).
 */
export const { values: ACCOUNT_VALIDATION_STATUSES, labels: ACCOUNT_VALIDATION_STATUS_LABELS } = labelledEnum({
  pending: "Prenote Queued",
  sent: "Prenote Sent",
  validated: "Validated",
  failed: "Failed",
});
export type AccountValidationStatus = (typeof ACCOUNT_VALIDATION_STATUSES)[number];

export const { values: ACCOUNT_VALIDATION_METHODS, labels: ACCOUNT_VALIDATION_METHOD_LABELS } = labelledEnum({
  prenote: "Prenote",
  prior_payment: "Prior successful ACH entry",
  account_verification_service: "Account verification service",
  bank_letter: "Bank letter or voided check",
});
export type AccountValidationMethod = (typeof ACCOUNT_VALIDATION_METHODS)[number];

/**
 * A borrower's recurring-debit authorisation (autopay): active (one per loan, the partial unique index)
 * → replaced (Change Autopay wrote a new one), cancelled (the borrower's Cancel Autopay), or stopped (a
 * return code said the account or the authorisation cannot be used again).
 */
export const { values: AUTOPAY_STATUSES, labels: AUTOPAY_STATUS_LABELS } = labelledEnum({
  active: "On",
  replaced: "Replaced",
  cancelled: "Cancelled",
  stopped: "Stopped",
});
export type AutopayStatus = (typeof AUTOPAY_STATUSES)[number];

/** What autopay debits: the installment due (with any fees the ledger takes first), or a fixed larger amount. */
export const { values: AUTOPAY_AMOUNT_KINDS, labels: AUTOPAY_AMOUNT_KIND_LABELS } = labelledEnum({
  installment: "The installment due",
  fixed: "A fixed amount",
});
export type AutopayAmountKind = (typeof AUTOPAY_AMOUNT_KINDS)[number];

/** The most days before the due date an autopay debit may be scheduled. */
export const AUTOPAY_MAX_DAYS_BEFORE_DUE = 5;

/** The WEB Payment Type Code of a borrower debit: S single (Make a Payment), R recurring (autopay). */
export const WEB_PAYMENT_TYPES = ["S", "R"] as const;
export type WebPaymentType = (typeof WEB_PAYMENT_TYPES)[number];

/**
 * A bank account's restriction after a return: unusable (closed, no or invalid account: R02/R03/R04,
 * the borrower adds another) or blocked for debits (unauthorised or revoked: R05/R07/R10/R11/R29).
 */
export const { values: ACCOUNT_RESTRICTION_KINDS, labels: ACCOUNT_RESTRICTION_KIND_LABELS } = labelledEnum({
  unusable: "Unusable",
  blocked: "Blocked for debits",
});
export type AccountRestrictionKind = (typeof ACCOUNT_RESTRICTION_KINDS)[number];

/** A loan flagged for staff: an unauthorised return (staff review the case), a promise to pay broken. */
export const { values: LOAN_FLAG_KINDS, labels: LOAN_FLAG_KIND_LABELS } = labelledEnum({
  unauthorized_return: "Unauthorized return",
  broken_promise: "Broken promise to pay",
});
export type LoanFlagKind = (typeof LOAN_FLAG_KINDS)[number];
