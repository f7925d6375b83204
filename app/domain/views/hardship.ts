import type { HardshipReason, HardshipRequestStatus, ModificationStatus } from "~/domain/collections-enums";
import type { PlanTotals } from "~/domain/hardship-plans";
import type { PaymentRow } from "~/domain/loan-schedule";
import type { ModificationKind } from "~/domain/loan-modifications";

/** What the hardship pages and panels show (built by app/server/loans/hardship-views.server.ts). */

export type HardshipRequestView = {
  id: string;
  reason: HardshipReason;
  reasonLabel: string;
  details: string | null;
  canPayCents: number;
  status: HardshipRequestStatus;
  statusLabel: string;
  /** ISO time. */
  createdAt: string;
  closedAt: string | null;
  closeNote: string | null;
};

export type PlanView = {
  id: string;
  kind: ModificationKind;
  kindLabel: string;
  /** The plan in one sentence (planSentence). */
  sentence: string;
  status: ModificationStatus;
  statusLabel: string;
  offeredAt: string;
  expiresOn: string;
  /** What is left to pay before and after, from the plan's first installment (null for rows stored without). */
  totals: PlanTotals | null;
  signedAt: string | null;
  signerName: string | null;
  /** The signed PDF's download link for this reader (null until signed). */
  fileUrl: string | null;
  note: string | null;
};

/** The borrower's loan page: Request Help with Payments, or where the request and the plan stand. */
export type BorrowerHardshipData = {
  /** The loan can take a request now (serviced, no request in progress). */
  canRequest: boolean;
  /** Why Request Help with Payments is not offered (paid off, charged off, …), null when it is or a request is in progress. */
  unavailable: string | null;
  request: HardshipRequestView | null;
  /** The plan offered and still open to sign. */
  offer: PlanView | null;
  /** Plans signed on this loan, newest first. */
  signed: PlanView[];
};

/** The staff loan page's Hardship panel. */
export type StaffHardshipPanelData = {
  loanId: string;
  /** Why no plan can be offered now (the loan's state), or null. */
  unavailable: string | null;
  /** The first unpaid installment, which a plan starts from. */
  firstUnpaid: { number: number; dueDate: string } | null;
  regularPaymentCents: number;
  /** The yearly limits as they stand today (null: allowed). */
  limits: { deferment: string | null; due_date_change: string | null };
  request: HardshipRequestView | null;
  offer: PlanView | null;
  /** Every plan on the loan, newest first. */
  plans: PlanView[];
  /** Requests closed on this loan, newest first. */
  pastRequests: HardshipRequestView[];
};

/** The borrower's review page (/dashboard/loans/:id/plan). */
export type PlanReviewPageData = {
  loanId: string;
  loanReference: string;
  loanType: string;
  /** sign: offered and signable; consent: E-SIGN consent is not in force; closed: nothing to sign (closedMessage says why). */
  state: "sign" | "consent" | "closed";
  closedMessage: string | null;
  plan: PlanView | null;
  /** The schedule in force and the new one, from the plan's first installment on. */
  before: PaymentRow[];
  after: PaymentRow[];
  totals: PlanTotals | null;
  /** The new schedule's digest, posted back with the signature. */
  digest: string | null;
  /** The name to type. */
  signerName: string;
  applicationId: string;
  today: string;
};
