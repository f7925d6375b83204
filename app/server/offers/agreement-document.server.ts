import { site } from "~/content/site";
import { disclosureBoxLines, noteServicingParagraphs, numberedParagraph } from "~/domain/agreement-terms-text";
import { ESIGN_CONSENT_VERSION } from "~/domain/esign-consent";
import { formatMoney, formatRate, rateFromPercent } from "~/domain/money";
import { parseServicingTerms, type ServicingTerms } from "~/domain/servicing-terms";
import { disclosure } from "~/domain/truth-in-lending";
import { expectedFundingDate } from "~/domain/funding";
import type { AgreementPreview, SigningDayFigures } from "~/domain/views/agreement-preview";
import { type AgreementDocument, type AgreementSignature, type SigningCertificate } from "~/domain/views/loan-agreement";
import { getConfig } from "~/server/platform/config.server";
import type { OfferRow } from "./offers.server";
import type { OwnApplication } from "./consent.server";

/**
 * The loan agreement as data, built from what is stored: the offer's row (its terms, in cents), the
 * application's name, address and e-mail, and the lender's legal name and address. The Review and Sign
 * page shows the preview and the signed PDF is rendered from the same value plus the signature and
 * certificate, so the screen and the paper cannot disagree. Interest accrues by the day from signing,
 * so the Truth in Lending figures are computed for the signing day: the final payment, finance charge,
 * total of payments, APR and schedule are that day's (what will be serviced), while the figures that do
 * not depend on the day (origination fee, amount financed, regular payment, term) are checked against
 * the stored offer: a mismatch there is a bug, never signed.
 */

type Borrower = Pick<OwnApplication, "firstName" | "middleInitial" | "lastName" | "email" | "addressLine1" | "addressLine2" | "city" | "state" | "zipCode">;

export function borrowerName(app: Pick<OwnApplication, "firstName" | "middleInitial" | "lastName">): string {
  return [app.firstName, app.middleInitial ? `${app.middleInitial}.` : "", app.lastName].filter(Boolean).join(" ");
}

/** The lender as the agreement names it: the configured legal name (LENDER_LEGAL_NAME) or the site's name, at the Contact page's address. */
export function agreementLender(): AgreementDocument["lender"] {
  const licensing = getConfig().licensing;
  const street = site.address.street;
  // "1200 Market Street, Suite 400" → line 1 and line 2.
  const [line1, ...rest] = street.split(/,\s*/);
  return {
    name: licensing?.legalName ?? site.name,
    ...(licensing?.nmlsId ? { nmlsId: licensing.nmlsId } : {}),
    address: { line1: line1 ?? street, ...(rest.length ? { line2: rest.join(", ") } : {}), city: site.address.city, state: site.address.state, postalCode: site.address.zip },
  };
}

/** An offer's agreement reference: "LN-" and the offer id's first 8 characters, upper case. */
export function agreementReference(offerId: string): string {
  return `LN-${offerId.slice(0, 8).toUpperCase()}`;
}

export class AgreementFiguresMismatch extends Error {
  constructor(field: string) {
    super(`agreement-document: the recomputed ${field} differs from the stored offer`);
    this.name = "AgreementFiguresMismatch";
  }
}

/**
 * The note, one numbered paragraph per entry: the promise to pay, the servicing terms written from the
 * offer's stored terms (interest, payments, late charge, returned payment, prepayment, default), the
 * governing law and the electronic signature.
 */
function noteTerms(offer: OfferRow, servicingTerms: ServicingTerms, schedule: AgreementPreview["schedule"], lenderName: string, expectedFundingDate: string): string[] {
  const servicing = noteServicingParagraphs(servicingTerms, {
    noteRateMilli: offer.noteRateMilli,
    originationFeeCents: offer.originationFeeCents,
    paymentCents: offer.paymentCents,
    finalPaymentCents: offer.finalPaymentCents,
    paymentCount: schedule.length,
    firstDueDate: schedule[0]!.dueDate,
    lastDueDate: schedule.at(-1)!.dueDate,
    expectedFundingDate,
  });
  return [
    {
      title: "PROMISE TO PAY",
      text: `In return for a loan of ${formatMoney(offer.amountCents)} that I receive from ${lenderName} (the "Lender"), I promise to pay that principal amount, plus interest, to the order of the Lender. The Origination Fee of ${formatMoney(offer.originationFeeCents)} is a prepaid finance charge taken from the loan proceeds, so the Amount Financed is ${formatMoney(offer.amountFinancedCents)}.`,
    },
    ...servicing,
    {
      title: "GOVERNING LAW",
      text: "This agreement is governed by federal law and, to the extent federal law does not apply, by the law of the state in which the Lender is located, except where the law of the state where I live requires otherwise.",
    },
    {
      title: "ELECTRONIC SIGNATURE",
      text: `I consented to receive records and sign electronically (E-SIGN consent version ${ESIGN_CONSENT_VERSION}) before signing. I agree that this agreement is signed electronically under the federal E-SIGN Act (15 U.S.C. 7001 et seq.), that my electronic signature has the same effect as a handwritten one, and that I may ask for a paper copy at no charge.`,
    },
  ].map((paragraph, i) => numberedParagraph(i + 1, paragraph));
}

/**
 * The agreement of an offer as signed on `signedOn` ('yyyy-MM-dd'), without signature and certificate.
 * Throws AgreementFiguresMismatch if the Truth in Lending module no longer gives the stored fee, amount
 * financed or term; the level payment and the figures after it are the signing day's.
 */
export function agreementPreview(offer: OfferRow, borrower: Borrower, signedOn: string): AgreementPreview {
  // Due dates count from the signing day; interest from the day the proceeds are expected to settle.
  const fundingExpected = expectedFundingDate(signedOn);
  const figures = disclosure({
    amountCents: offer.amountCents,
    noteRateMilli: offer.noteRateMilli,
    termMonths: offer.termMonths,
    originationFeeMilli: offer.originationFeeMilli,
    signedOn,
    fundedOn: fundingExpected,
  });
  const checks: [string, number, number][] = [
    ["origination fee", figures.originationFeeCents, offer.originationFeeCents],
    ["amount financed", figures.amountFinancedCents, offer.amountFinancedCents],
    ["term", figures.schedule.length, offer.termMonths],
  ];
  for (const [field, computed, stored] of checks) if (computed !== stored) throw new AgreementFiguresMismatch(field);

  const signed: SigningDayFigures = {
    paymentCents: figures.paymentCents,
    finalPaymentCents: figures.schedule.at(-1)!.paymentCents,
    financeChargeCents: figures.financeChargeCents,
    totalOfPaymentsCents: figures.totalOfPaymentsCents,
    aprMilli: rateFromPercent(figures.aprPercent),
  };
  // The offer as it will be signed: its terms with the signing day's figures.
  const signedOffer: OfferRow = { ...offer, ...signed };
  const lender = agreementLender();
  const servicingTerms = parseServicingTerms(offer.servicingTerms);
  const schedule = figures.schedule;
  const aprPercent = formatRate(signed.aprMilli);
  return {
    reference: agreementReference(offer.id),
    lender,
    borrower: {
      name: borrowerName(borrower),
      email: borrower.email,
      address: {
        line1: borrower.addressLine1,
        ...(borrower.addressLine2 ? { line2: borrower.addressLine2 } : {}),
        city: borrower.city,
        state: borrower.state,
        postalCode: borrower.zipCode,
      },
    },
    terms: {
      amountCents: offer.amountCents,
      noteRatePercent: formatRate(offer.noteRateMilli),
      aprPercent,
      termMonths: offer.termMonths,
      monthlyPaymentCents: signed.paymentCents,
      firstPaymentDue: schedule[0]!.dueDate,
      originationFeeCents: offer.originationFeeCents,
    },
    disclosure: {
      aprPercent,
      financeChargeCents: signed.financeChargeCents,
      amountFinancedCents: offer.amountFinancedCents,
      totalOfPaymentsCents: signed.totalOfPaymentsCents,
    },
    disclosureLines: disclosureBoxLines(servicingTerms, offer),
    schedule,
    noteTerms: noteTerms(signedOffer, servicingTerms, schedule, lender.name, fundingExpected),
    signedOn,
    expectedFundingDate: fundingExpected,
    figures: signed,
    maturityDate: schedule.at(-1)!.dueDate,
  };
}

/** The signed agreement: the preview of the signing day plus the signature and the certificate. */
export function signedAgreementDocument(preview: AgreementPreview, signature: AgreementSignature, certificate: SigningCertificate): AgreementDocument {
  const { signedOn: _signedOn, expectedFundingDate: _expected, maturityDate: _maturityDate, figures: _figures, ...document } = preview;
  return { ...document, signature, certificate };
}
