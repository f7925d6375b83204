/**
 * Loan offers: what an approval records, its statuses and labels, and when it is a
 * Counteroffer. Apart from ./enums.ts because that module ships with every public page. The database's
 * CHECK constraints are built from the same arrays (app/server/platform/db/schema.server.ts). Pure, no I/O.
 *
 * Units: money in integer cents; rates in thousandths of a percent (8.125 % → 8125), the precision
 * the Truth in Lending module accepts, so nothing is re-rounded between the form, the database, the
 * screen and the signed PDF.
 */

import type { DisclosureLine } from "./agreement-terms-text";
import { formatPercent, termLabel } from "./formats";
import { labelledEnum } from "./labelled-enum";
import { formatAmount, type RateMilli } from "./money";

/** offered → signed (the loan becomes active) | declined | expired | withdrawn. */
const OFFER_STATUS = labelledEnum({ offered: "Offered", signed: "Signed", declined: "Declined", expired: "Expired", withdrawn: "Withdrawn" });
export const { values: OFFER_STATUSES, labels: OFFER_STATUS_LABELS } = OFFER_STATUS;
export type OfferStatus = (typeof OFFER_STATUSES)[number];

export function offerStatusLabel(status: string): string {
  return OFFER_STATUS.label(status, "Unknown");
}

/** How the borrower signed: on the pad (a PNG) or by typing their name. */
export const SIGNATURE_KINDS = ["drawn", "typed"] as const;
export type SignatureKind = (typeof SIGNATURE_KINDS)[number];

export const OFFER_LIMITS = {
  /** Origination Fee (%): a sanity bound well under the Truth in Lending module's 25 %. */
  originationFeeMaxPercent: 10,
  /** Why staff withdrew an offer (the applicant reads it). */
  withdrawReasonMaxLength: 500,
  /** A typed signature: the signer's name. */
  typedSignatureMaxLength: 120,
  /** Configurable expiry bounds (OFFER_EXPIRY_DAYS). */
  expiryDaysMin: 1,
  expiryDaysMax: 90,
} as const;


/** What the applicant asked for, in the offer's units. */
export type RequestedTerms = { amountCents: number; rateMilli: number; termMonths: number };
/** What staff approved. */
export type OfferedTerms = { amountCents: number; noteRateMilli: number; termMonths: number };

/**
 * A Counteroffer (Reg B, 12 CFR 1002.9(a)(1)(iv)): the lender offers credit on terms other than those
 * requested: less money, a higher rate, or another term. More money or a lower rate alone is not.
 */
export function isCounteroffer(requested: RequestedTerms, offered: OfferedTerms): boolean {
  return offered.amountCents < requested.amountCents || offered.noteRateMilli > requested.rateMilli || offered.termMonths !== requested.termMonths;
}

/** Loan terms in dollars and percent, as an application asks for them and an approval gives them. */
export type TermsInDollars = { amount: number; ratePercent: number; termMonths: number };

/** Terms in one line, the same wherever a counteroffer is explained: "$18,000 at 9.5% for 36 months (3 years)". */
export function describeTerms(terms: TermsInDollars): string {
  return `${formatAmount(terms.amount)} at ${formatPercent(terms.ratePercent)} for ${termLabel(terms.termMonths)}`;
}

/** The highest APR the site advertises, and so the highest an offer may carry unless MAX_APR says otherwise. */
export const DEFAULT_MAX_APR_PERCENT = 35.99;

/** Why an offer's APR is refused: the field to point at and the message, with the APR shown. */
export type AprCapProblem = { field: "interestRate" | "originationFeePercent"; message: string };

/**
 * An offer may not carry an APR above the configured cap (MAX_APR): the site advertises rates up to
 * it, and a high fee on a short loan can push the APR far past the note rate. The APR compared is the
 * one disclosed (the Truth in Lending module's, rounded to two decimals). The note rate alone over the
 * cap points at Interest Rate; otherwise the fee pushed it over, so Origination Fee.
 */
export function aprCapProblem(aprPercent: number, terms: { noteRateMilli: RateMilli; originationFeeMilli: RateMilli }, maxAprPercent: number): AprCapProblem | null {
  const toMilli = (percent: number) => Math.round(percent * 1000);
  if (toMilli(aprPercent) <= toMilli(maxAprPercent)) return null;
  // Without a fee only the rate raises the APR (interest by the day adds a few hundredths to it).
  const field = terms.noteRateMilli > toMilli(maxAprPercent) || terms.originationFeeMilli === 0 ? "interestRate" : "originationFeePercent";
  return {
    field,
    message: `The APR of these terms is ${aprPercent.toFixed(2)}%, above the ${maxAprPercent.toFixed(2)}% APR we offer at most. Choose a lower interest rate or origination fee.`,
  };
}


/**
 * One offer as both sides see it (the applicant's Your Loan Offer card, the staff offer panel): the
 * terms and the Truth in Lending figures fixed when the offer was made. Dates and instants are ISO
 * strings; the payment schedule's due dates exist only once the agreement is signed.
 */
export type OfferView = {
  id: string;
  applicationId: string;
  status: OfferStatus;
  statusLabel: string;
  isCounteroffer: boolean;
  /** The Reg B reasons given with a Counteroffer (empty for a plain offer). */
  counterofferReasons: string[];
  amountCents: number;
  /** Percent strings as disclosed ("8.50", "9.13"). */
  noteRatePercent: string;
  aprPercent: string;
  originationFeePercent: string;
  termMonths: number;
  /** The regular monthly payment; the last one may differ by the rounding. */
  paymentCents: number;
  finalPaymentCents: number;
  originationFeeCents: number;
  amountFinancedCents: number;
  financeChargeCents: number;
  totalOfPaymentsCents: number;
  /** The disclosure box's lines from the offer's servicing terms: Late Charge, Prepayment, the contract reference. */
  disclosureLines: DisclosureLine[];
  /** ISO instant after which the offer can no longer be signed. */
  expiresAt: string;
  createdAt: string;
  /** When it was signed, declined, expired or withdrawn. */
  decidedAt: string | null;
  /** Staff's reason, when withdrawn. */
  withdrawReason: string | null;
  /** Once signed: the first payment's due date ('yyyy-MM-dd'). */
  firstPaymentDue: string | null;
};

/** The signing certificate staff see (and the PDF's last page prints). */
export type AgreementCertificateView = {
  signerName: string;
  signerEmail: string;
  signatureKind: SignatureKind;
  signedAt: string;
  ipAddress: string;
  userAgent: string;
  consentVersion: string;
  consentedAt: string;
  sha256: string;
  byteSize: number;
};
