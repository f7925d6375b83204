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

export const LOAN_FEE_KINDS = ["late_fee"] as const;
export type LoanFeeKind = (typeof LOAN_FEE_KINDS)[number];

export const SERVICING_NOTICE_KINDS = ["reminder", "late_notice"] as const;
export type ServicingNoticeKind = (typeof SERVICING_NOTICE_KINDS)[number];

/** NACHA return codes staff choose from when a debit comes back (the common ones for consumer debits). */
export const ACH_RETURN_CODES = [
  { code: "R01", label: "Insufficient Funds" },
  { code: "R02", label: "Account Closed" },
  { code: "R03", label: "No Account/Unable to Locate Account" },
  { code: "R04", label: "Invalid Account Number Structure" },
  { code: "R07", label: "Authorization Revoked by Customer" },
  { code: "R08", label: "Payment Stopped" },
  { code: "R09", label: "Uncollected Funds" },
  { code: "R10", label: "Customer Advises Not Authorized" },
  { code: "R16", label: "Account Frozen" },
  { code: "R20", label: "Non-Transaction Account" },
  { code: "R29", label: "Corporate Customer Advises Not Authorized" },
] as const;
