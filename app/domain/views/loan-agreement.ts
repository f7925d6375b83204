import type { DisclosureLine } from "~/domain/agreement-terms-text";
import type { PaymentRow } from "~/domain/truth-in-lending";

/**
 * A loan agreement as plain data ("Consent and signing"): the server renders the signed PDF
 * from it (server/offers/agreement-pdf.server.ts) and the Review and Sign page can render the same
 * value on screen, so paper and screen cannot disagree. Types only, safe in the browser.
 *
 * Units, chosen so nothing is re-rounded on the way to paper:
 * - every money amount is integer cents (the disclosure math works in cents);
 * - rates are preformatted percent strings without the sign ("7.893"), exactly as disclosed,
 *   because the APR's disclosed precision is a rule of the calculation, not of the renderer;
 * - dates are 'yyyy-MM-dd', instants are ISO 8601 strings.
 */

export type PostalAddress = {
  line1: string;
  line2?: string;
  city: string;
  state: string;
  postalCode: string;
};

export type AgreementParty = {
  /** The lender's legal name, or the borrower's full name. */
  name: string;
  address: PostalAddress;
};

export type AgreementLender = AgreementParty & { nmlsId?: string };

export type AgreementBorrower = AgreementParty & { email: string };

export type AgreementTerms = {
  amountCents: number;
  /** Note (contract) rate, percent, as disclosed: "6.500". */
  noteRatePercent: string;
  /** Annual percentage rate, percent, as disclosed: "7.234". */
  aprPercent: string;
  termMonths: number;
  monthlyPaymentCents: number;
  /** 'yyyy-MM-dd'. */
  firstPaymentDue: string;
  originationFeeCents: number;
};

/** The four boxed figures of the federal Truth in Lending disclosure (12 CFR 1026.18). */
export type TruthInLendingBox = {
  /** Percent, as disclosed: "7.234". */
  aprPercent: string;
  financeChargeCents: number;
  amountFinancedCents: number;
  totalOfPaymentsCents: number;
};

/** One scheduled payment, as the Truth in Lending module computes it (integer cents, 'yyyy-MM-dd'). */
export type ScheduleRow = PaymentRow;

/** A drawn signature (the PNG the signature pad produced) or a typed name. */
export type AgreementSignature = { kind: "drawn"; png: Uint8Array } | { kind: "typed"; name: string };

export type SigningCertificate = {
  signerName: string;
  signerEmail: string;
  /** ISO 8601 instant; also the PDF's creation date, so the bytes are reproducible. */
  signedAt: string;
  ipAddress: string;
  userAgent: string;
  /** Version of the E-SIGN consent text the signer agreed to. */
  consentVersion: string;
  /** ISO 8601 instant of that consent. */
  consentedAt: string;
};

export type AgreementDocument = {
  /** The loan or offer id the agreement is for, printed in the header. */
  reference: string;
  lender: AgreementLender;
  borrower: AgreementBorrower;
  terms: AgreementTerms;
  disclosure: TruthInLendingBox;
  /** The box's lines under the four figures: Late Charge, Prepayment, the contract reference (agreement-terms-text.ts). */
  disclosureLines: DisclosureLine[];
  schedule: ScheduleRow[];
  /** The note terms, one paragraph per entry. */
  noteTerms: string[];
  signature: AgreementSignature;
  certificate: SigningCertificate;
};

/** The Regulation Z headings and their standard description lines (Appendix H model form H-2). */
export const TILA_BOX_HEADINGS = [
  { key: "aprPercent", heading: "ANNUAL PERCENTAGE RATE", description: "The cost of your credit as a yearly rate." },
  { key: "financeChargeCents", heading: "FINANCE CHARGE", description: "The dollar amount the credit will cost you." },
  { key: "amountFinancedCents", heading: "Amount Financed", description: "The amount of credit provided to you or on your behalf." },
  {
    key: "totalOfPaymentsCents",
    heading: "Total of Payments",
    description: "The amount you will have paid after you have made all payments as scheduled.",
  },
] as const satisfies readonly { key: keyof TruthInLendingBox; heading: string; description: string }[];

export const AGREEMENT_TITLE = "Loan Agreement and Federal Truth in Lending Disclosure";

