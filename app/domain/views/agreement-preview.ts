import { formatDay } from "~/domain/formats";

import type { AgreementDocument } from "./loan-agreement";

/**
 * The loan agreement as the Review and Sign page shows it before signing: the same value
 * the signed PDF is rendered from (app/server/offers/agreement-document.server.ts builds both), without
 * the signature and the signing certificate, which exist only once the applicant signs. The due dates
 * and the figures that depend on them are those of a signature today; signing fixes them. Types only,
 * safe in the browser.
 */

/** The Truth in Lending figures that depend on the signing day (interest accrues by the day), as an offer stores them. */
/**
 * The figures that depend on the signing day (interest accrues by the day from it): the level payment,
 * the last payment, the finance charge, the total of payments and the APR.
 */
export type SigningDayFigures = { paymentCents: number; finalPaymentCents: number; financeChargeCents: number; totalOfPaymentsCents: number; aprMilli: number };

export type AgreementPreview = Omit<AgreementDocument, "signature" | "certificate"> & {
  /** The signing day ('yyyy-MM-dd'): today on the page, the signing day on paper. */
  signedOn: string;
  /** The day the proceeds are expected to settle ('yyyy-MM-dd', the first banking day after signing): the figures' interest runs from it. */
  expectedFundingDate: string;
  /** The signing day's figures (the ones the page shows and signing stores on the offer). */
  figures: SigningDayFigures;
  /** The last scheduled due date ('yyyy-MM-dd'). */
  maturityDate: string;
};

/** 'yyyy-MM-dd' → "Jan 5, 2027" (a calendar day, no time zone): the one format (formatDay); other text as is. */
export function formatAgreementDay(day: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(day) ? formatDay(day) : day;
}

/** Where the Review and Sign page stands: consent first, then the agreement, or why it cannot be signed. */
export type ReviewAndSignState = "consent" | "sign" | "signed" | "closed";

/** The Review and Sign page's data (/dashboard/applications/:id/offer). */
export type ReviewAndSignPageData = {
  applicationId: string;
  state: ReviewAndSignState;
  /** The offer's status label and why it cannot be signed (state "closed" or "signed"). */
  statusLabel: string | null;
  closedMessage: string | null;
  /** ISO instant after which the offer can no longer be signed. */
  expiresAt: string | null;
  consent: { version: string; consentedAt: string } | null;
  /** Shown only after the E-SIGN consent (the disclosure is the first electronic record). */
  agreement: AgreementPreview | null;
  /** The name a typed signature must match. */
  signerName: string;
  /** Once signed: when the first payment is due ('yyyy-MM-dd'). */
  firstPaymentDue: string | null;
};
