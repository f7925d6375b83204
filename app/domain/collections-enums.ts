/**
 * The enumerations of late loans: collections contact, promises to pay, hardship requests and plans,
 * protected borrowers and charge-off. Shared by forms, labels and the database's CHECK constraints.
 * Pure, no I/O, safe in the browser.
 */

import { labelledEnum } from "./labelled-enum";

/** How staff reached (or tried to reach) the borrower. */
export const { values: CONTACT_CHANNELS, labels: CONTACT_CHANNEL_LABELS } = labelledEnum({
  call: "Call",
  email: "E-mail",
  letter: "Letter",
  text: "Text",
});
export type ContactChannel = (typeof CONTACT_CHANNELS)[number];

/** What came of a contact attempt. */
export const { values: CONTACT_OUTCOMES, labels: CONTACT_OUTCOME_LABELS } = labelledEnum({
  reached: "Reached the borrower",
  left_message: "Left a message",
  no_answer: "No answer",
  wrong_number: "Wrong number or address",
  promise_made: "Promise to pay made",
  refused: "Refused to pay",
  dispute: "Disputes the debt",
  hardship: "Asked for help with payments",
});
export type ContactOutcome = (typeof CONTACT_OUTCOMES)[number];

/** open → kept (the promised amount posted by the date) or broken (it had not, the day after) or cancelled by staff. */
export const { values: PROMISE_STATUSES, labels: PROMISE_STATUS_LABELS } = labelledEnum({
  open: "Open",
  kept: "Kept",
  broken: "Broken",
  cancelled: "Cancelled",
});
export type PromiseStatus = (typeof PROMISE_STATUSES)[number];

/** Why the borrower asks for help (Request Help with Payments). */
export const { values: HARDSHIP_REASONS, labels: HARDSHIP_REASON_LABELS } = labelledEnum({
  job_loss: "Job loss or reduced hours",
  medical: "Illness or medical bills",
  family: "Divorce, death or a change in the family",
  disaster: "Natural disaster",
  military: "Military service",
  other: "Something else",
});
export type HardshipReason = (typeof HARDSHIP_REASONS)[number];

/** open (waiting for staff) → offered (a plan offered) → closed (signed, declined or closed by staff). */
export const { values: HARDSHIP_REQUEST_STATUSES, labels: HARDSHIP_REQUEST_STATUS_LABELS } = labelledEnum({
  open: "Open",
  offered: "Plan Offered",
  closed: "Closed",
});
export type HardshipRequestStatus = (typeof HARDSHIP_REQUEST_STATUSES)[number];

/** offered → signed (serviced from the signing day) | declined by the borrower | withdrawn by staff | expired. */
export const { values: MODIFICATION_STATUSES, labels: MODIFICATION_STATUS_LABELS } = labelledEnum({
  offered: "Offered",
  signed: "Signed",
  declined: "Declined",
  withdrawn: "Withdrawn",
  expired: "Expired",
});
export type ModificationStatus = (typeof MODIFICATION_STATUSES)[number];

/** A protected borrower: an active-duty servicemember (SCRA) or a bankruptcy filing (automatic stay). */
export const { values: PROTECTION_KINDS, labels: PROTECTION_KIND_LABELS } = labelledEnum({
  servicemember: "Active-duty servicemember (SCRA)",
  bankruptcy: "Bankruptcy filing (automatic stay)",
});
export type ProtectionKind = (typeof PROTECTION_KINDS)[number];

/** A charge-off at or above the four-eyes threshold waits for a second admin: pending → approved | rejected. */
export const { values: CHARGE_OFF_REQUEST_STATUSES, labels: CHARGE_OFF_REQUEST_STATUS_LABELS } = labelledEnum({
  pending: "Awaiting Approval",
  approved: "Approved",
  rejected: "Rejected",
});
export type ChargeOffRequestStatus = (typeof CHARGE_OFF_REQUEST_STATUSES)[number];

/** Limits the database enforces (the forms say so first). */
export const COLLECTIONS_LIMITS = {
  noteMaxLength: 2000,
  nextActionMaxLength: 200,
  hardshipDetailsMaxLength: 2000,
  reasonMaxLength: 1000,
  referenceMaxLength: 100,
} as const;
