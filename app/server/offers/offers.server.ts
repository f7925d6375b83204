import { and, desc, eq, inArray } from "drizzle-orm";
import { isCounteroffer, offerStatusLabel, type AgreementCertificateView, type OfferStatus, type OfferView } from "~/domain/loan-offers";
import { formatRate, rateFromPercent, type Cents, type RateMilli } from "~/domain/money";
import { disclosure, type Disclosure } from "~/domain/truth-in-lending";
import { todayUtc } from "~/domain/dates";
import { disclosureBoxLines } from "~/domain/agreement-terms-text";
import { parseServicingTerms, servicingTermsFrom } from "~/domain/servicing-terms";
import { getConfig } from "~/server/platform/config.server";
import { getDb, type DbOrTx } from "~/server/platform/db/client.server";
import { loanOffers, signedAgreements } from "~/server/platform/db/schema.server";
import { AppError } from "~/server/platform/http/app-error.server";

/**
 * Loan offers: making one (inside the approval's transaction) and reading them for either
 * side. The Truth in Lending figures are computed once, when the offer is made, and stored: what the
 * applicant is shown, what the PDF prints and what the loan is made of are the same stored numbers.
 * Their arithmetic does not depend on the signing date (every period is one month), only the due
 * dates do, and those are fixed when the agreement is signed.
 */

/** The approve dialog's terms, as its schema outputs them: cents and thousandths of a percent. */
export type OfferTermsInput = {
  approvedAmountCents: Cents;
  interestRateMilli: RateMilli;
  termMonths: number;
  originationFeeMilli: RateMilli;
};

export const OFFER_TERMS_MESSAGES = {
  notAmortising:
    "These terms do not repay the loan in equal monthly payments (the rounded payment would end the loan early, never reduce it, or leave a balloon). Choose a larger amount, a lower rate or a shorter term.",
  feeTooLarge: "The origination fee leaves no amount financed. Choose a lower fee.",
  reasonsRequired: "These terms differ from what was requested (less money, a higher rate or another term): choose at least one reason for the counteroffer",
} as const;

/**
 * The disclosure of these terms if signed on `signedOn` (interest accrues daily, so the final payment,
 * finance charge and APR depend on the day; the offer stores today's, and signing stores the signing
 * day's). A RangeError from the Truth in Lending module becomes a field error the approve dialog shows.
 */
export function disclosureFor(terms: OfferTermsInput, signedOn: string = todayUtc()): Disclosure {
  try {
    return disclosure({
      amountCents: terms.approvedAmountCents,
      noteRateMilli: terms.interestRateMilli,
      termMonths: terms.termMonths,
      originationFeeMilli: terms.originationFeeMilli,
      signedOn,
    });
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    if (/origination fee/i.test(error.message)) throw new AppError("offer_terms", 400, OFFER_TERMS_MESSAGES.feeTooLarge, { field: "originationFeePercent" });
    throw new AppError("offer_terms", 400, OFFER_TERMS_MESSAGES.notAmortising, { field: "termMonths" });
  }
}

export type RequestedApplicationTerms = { requestedAmountCents: number; desiredRateMilli: number; loanDuration: number };

/** Whether approving these terms is a Counteroffer to what the application asked for. */
export function counterofferFor(requested: RequestedApplicationTerms, terms: OfferTermsInput): boolean {
  return isCounteroffer(
    { amountCents: requested.requestedAmountCents, rateMilli: requested.desiredRateMilli, termMonths: requested.loanDuration },
    { amountCents: terms.approvedAmountCents, noteRateMilli: terms.interestRateMilli, termMonths: terms.termMonths },
  );
}

/**
 * Inserts the offer (inside the caller's transaction). The partial unique index
 * loan_offers_one_live_per_application_idx keeps a second open or signed offer out even if two
 * approvals raced past the status check.
 */
export async function insertOffer(
  tx: DbOrTx,
  offer: {
    applicationId: string;
    userId: string;
    terms: OfferTermsInput;
    figures: Disclosure;
    counteroffer: boolean;
    counterofferReasons: string[];
    expiresAt: Date;
    createdBy: string;
  },
): Promise<{ id: string }> {
  const { figures, terms } = offer;
  const [row] = await tx
    .insert(loanOffers)
    .values({
      applicationId: offer.applicationId,
      userId: offer.userId,
      isCounteroffer: offer.counteroffer,
      counterofferReasons: offer.counteroffer ? offer.counterofferReasons : [],
      amountCents: figures.amountCents,
      noteRateMilli: terms.interestRateMilli,
      termMonths: terms.termMonths,
      originationFeeMilli: terms.originationFeeMilli,
      originationFeeCents: figures.originationFeeCents,
      amountFinancedCents: figures.amountFinancedCents,
      paymentCents: figures.paymentCents,
      finalPaymentCents: figures.schedule.at(-1)!.paymentCents,
      financeChargeCents: figures.financeChargeCents,
      totalOfPaymentsCents: figures.totalOfPaymentsCents,
      aprMilli: rateFromPercent(figures.aprPercent),
      // The servicing terms are the lender's settings when the offer is made; later changes to the
      // settings reach only offers made after them.
      servicingTerms: servicingTermsFrom(getConfig().lateFeePolicy),
      expiresAt: offer.expiresAt,
      createdBy: offer.createdBy,
    })
    .returning({ id: loanOffers.id });
  return row!;
}

export type OfferRow = typeof loanOffers.$inferSelect;

export function toOfferView(row: OfferRow, firstPaymentDue: string | null = null): OfferView {
  return {
    id: row.id,
    applicationId: row.applicationId,
    status: row.status as OfferStatus,
    statusLabel: offerStatusLabel(row.status),
    isCounteroffer: row.isCounteroffer,
    counterofferReasons: row.counterofferReasons,
    amountCents: row.amountCents,
    noteRatePercent: formatRate(row.noteRateMilli),
    aprPercent: formatRate(row.aprMilli),
    originationFeePercent: formatRate(row.originationFeeMilli),
    termMonths: row.termMonths,
    paymentCents: row.paymentCents,
    finalPaymentCents: row.finalPaymentCents,
    originationFeeCents: row.originationFeeCents,
    amountFinancedCents: row.amountFinancedCents,
    financeChargeCents: row.financeChargeCents,
    totalOfPaymentsCents: row.totalOfPaymentsCents,
    disclosureLines: disclosureBoxLines(parseServicingTerms(row.servicingTerms), row),
    expiresAt: row.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
    withdrawReason: row.withdrawReason,
    firstPaymentDue,
  };
}

/**
 * The application's offers, newest first, each with its first due date once signed. The caller has
 * already checked that the viewer may see the application.
 */
export async function offersForApplication(applicationId: string, db: DbOrTx = getDb()): Promise<OfferView[]> {
  const rows = await offersWithFirstDue(db).where(eq(loanOffers.applicationId, applicationId)).orderBy(desc(loanOffers.createdAt), desc(loanOffers.id));
  return rows.map((r) => toOfferView(r.offer, r.firstPaymentDue));
}

/** An offer's row with its first due date once signed (null before). */
function offersWithFirstDue(db: DbOrTx) {
  return db.select({ offer: loanOffers, firstPaymentDue: signedAgreements.firstPaymentDue }).from(loanOffers).leftJoin(signedAgreements, eq(signedAgreements.offerId, loanOffers.id));
}

/**
 * A person's offers on all of their applications, newest first, at most `limit`, each with its first
 * due date once signed: one query filtered by the person's id (the dashboard's).
 */
export async function offersOfApplicant(userId: string, limit: number, db: DbOrTx = getDb()): Promise<{ offer: OfferRow; firstPaymentDue: string | null }[]> {
  return offersWithFirstDue(db).where(eq(loanOffers.userId, userId)).orderBy(desc(loanOffers.createdAt), desc(loanOffers.id)).limit(limit);
}

export type LatestOffer = Pick<OfferRow, "status" | "isCounteroffer" | "amountCents" | "noteRateMilli" | "termMonths" | "paymentCents">;

/** Each of these applications' latest offer (newest created, then highest id), in one query by loan_offers_application_id_idx. */
export async function latestOffersOf(applicationIds: readonly string[], db: DbOrTx = getDb()): Promise<Map<string, LatestOffer>> {
  if (applicationIds.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([loanOffers.applicationId], {
      applicationId: loanOffers.applicationId,
      status: loanOffers.status,
      isCounteroffer: loanOffers.isCounteroffer,
      amountCents: loanOffers.amountCents,
      noteRateMilli: loanOffers.noteRateMilli,
      termMonths: loanOffers.termMonths,
      paymentCents: loanOffers.paymentCents,
    })
    .from(loanOffers)
    .where(inArray(loanOffers.applicationId, [...new Set(applicationIds)]))
    .orderBy(loanOffers.applicationId, desc(loanOffers.createdAt), desc(loanOffers.id));
  return new Map(rows.map(({ applicationId, ...offer }) => [applicationId, offer]));
}

/** Whether the person signed an agreement for this application (the loan page links to it). */
export async function hasSignedAgreement(applicationId: string, userId: string, db: DbOrTx = getDb()): Promise<boolean> {
  const [row] = await db
    .select({ id: signedAgreements.id })
    .from(signedAgreements)
    .where(and(eq(signedAgreements.applicationId, applicationId), eq(signedAgreements.userId, userId)))
    .limit(1);
  return row !== undefined;
}

/** The signing certificate of a signed offer (staff see it; the PDF's last page prints it), or null. */
export async function certificateForOffer(offerId: string, db: DbOrTx = getDb()): Promise<AgreementCertificateView | null> {
  const [row] = await db.select().from(signedAgreements).where(eq(signedAgreements.offerId, offerId)).limit(1);
  if (!row) return null;
  return {
    signerName: row.signerName,
    signerEmail: row.signerEmail,
    signatureKind: row.signatureKind,
    signedAt: row.signedAt.toISOString(),
    ipAddress: row.ipAddress ?? "",
    userAgent: row.userAgent ?? "",
    consentVersion: row.consentVersion,
    consentedAt: row.consentedAt.toISOString(),
    sha256: row.sha256,
    byteSize: row.byteSize,
  };
}
