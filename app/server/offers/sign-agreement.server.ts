import { randomBytes, createHash } from "node:crypto";
import { and, desc, eq, gt, isNull } from "drizzle-orm";
import { aprCapProblem } from "~/domain/loan-offers";
import { formatRate, percentOf } from "~/domain/money";
import { parseServicingTerms } from "~/domain/servicing-terms";
import { nameToType, typedNameMatches, typedSignatureAsGiven } from "~/domain/signer-names";
import { OFFER_SIGNING_MESSAGES } from "~/domain/validation/offer-signing";
import { formatAgreementDay } from "~/domain/views/agreement-preview";
import type { AgreementDocument, AgreementSignature } from "~/domain/views/loan-agreement";
import type { SigningIdentity } from "~/server/platform/crypto/signing-identity.server";
import { applicationById } from "~/server/applications/index.server";
import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";
import { getConfig } from "~/server/platform/config.server";
import { todayUtc } from "~/domain/dates";
import { recordEvent } from "~/server/conversation/index.server";
import { getDb, type Db, type DbOrTx } from "~/server/platform/db/client.server";
import { esignConsents, loanOffers, signedAgreements } from "~/server/platform/db/schema.server";
import { openLoan } from "~/server/loans/index.server";
import { renderAgreementPdf } from "~/server/offers/agreement-pdf.server";
import { lenderSigningIdentity, sealAgreementPdf } from "~/server/offers/agreement-seal.server";
import { agreementSignedEmail } from "~/server/offers/agreement-emails.server";
import { enqueueEmail } from "~/server/platform/mail/outbox.server";
import { getStorage } from "~/server/platform/storage/storage.server";
import { assertSafeKey, type DocumentStorage } from "~/server/platform/storage/storage-keys.server";
import { agreementPreview, borrowerName, signedAgreementDocument } from "./agreement-document.server";
import { currentConsent, NOT_FOUND_MESSAGE, ownApplication, type OfferViewer } from "./consent.server";
import type { OfferRow } from "./offers.server";
import { sanctionsClearance } from "~/server/sanctions/index.server";
import { AppError } from "~/server/platform/http/app-error.server";

/**
 * Signing the loan agreement. The PDF is rendered, digitally signed by the lender (decision 0086) and
 * stored BEFORE the transaction (a
 * render or storage failure changes nothing); then one transaction makes the offer 'signed' with one
 * conditional UPDATE (… WHERE status = 'offered' AND expires_at > now), records the agreement and its
 * certificate and what the borrower signed with (typed name or drawn PNG), creates the active loan with its due dates, the timeline event, the audit row (with the
 * file's SHA-256) and the e-mail (a link, never the file). If the UPDATE matches nothing (signed in
 * another tab a moment ago, expired or withdrawn meanwhile) the stored file is removed again and the
 * signer is told why. The orphan sweep removes a file whose removal failed (it knows signed_agreements).
 */

/** Stored agreements live under their own prefix: agreements/<application id>/agreement_<random>.pdf. */
export const AGREEMENTS_PREFIX = "agreements";

export function agreementStorageKey(applicationId: string): string {
  const key = `${AGREEMENTS_PREFIX}/${applicationId}/agreement_${randomBytes(16).toString("hex")}.pdf`;
  assertSafeKey(key);
  return key;
}

export const SIGNING_MESSAGES = {
  noOffer: "There is no loan offer on this application to sign.",
  alreadySigned: "This loan agreement is already signed. You can download it from your application page.",
  declined: "You declined this offer, so it can no longer be signed.",
  withdrawn: "This offer was withdrawn by the lender and can no longer be signed.",
  expired: "This offer has expired and can no longer be signed.",
  noConsent: "Give your E-SIGN consent (Consent to Electronic Records and Signatures) before signing.",
  aboveAprCap: (aprPercent: string, maxAprPercent: number) =>
    `Signed today, these terms would carry an APR of ${aprPercent}%, above the ${maxAprPercent.toFixed(2)}% we offer at most, so this offer cannot be signed. Send us a message and we will offer new terms.`,
  dayChanged: "This agreement was updated for today's date. Review it again and sign.",
  // A confirmed sanctions match freezes the application; the applicant is never told why (no list is named).
  frozen: "This offer can no longer be signed. Send us a message if you have questions.",
} as const;

/** The application's most recent offer (the one the page shows), or null. */
export async function latestOffer(applicationId: string, db: DbOrTx = getDb()): Promise<OfferRow | null> {
  const [row] = await db.select().from(loanOffers).where(eq(loanOffers.applicationId, applicationId)).orderBy(desc(loanOffers.createdAt), desc(loanOffers.id)).limit(1);
  return row ?? null;
}

/** Why this offer cannot be signed at `now`, or null when it can. */
export function signingRefusal(offer: OfferRow | null, now: Date): AppError | null {
  if (!offer) return new AppError("offer_action", 409, SIGNING_MESSAGES.noOffer);
  switch (offer.status) {
    case "signed":
      return new AppError("offer_action", 409, SIGNING_MESSAGES.alreadySigned);
    case "declined":
      return new AppError("offer_action", 409, SIGNING_MESSAGES.declined);
    case "withdrawn":
      return new AppError("offer_action", 410, SIGNING_MESSAGES.withdrawn);
    case "expired":
      return new AppError("offer_action", 410, SIGNING_MESSAGES.expired);
    default:
      return offer.expiresAt.getTime() <= now.getTime() ? new AppError("offer_action", 410, SIGNING_MESSAGES.expired) : null;
  }
}

export type SignatureInput = { kind: "drawn"; png: Uint8Array } | { kind: "typed"; name: string };

export type SignResult = { offerId: string; loanId: string; agreementId: string; sha256: string; signingCertificateSha256: string; firstPaymentDue: string; storageKey: string };

/** The agreement rendered and digitally signed by the lender at the borrower's signing time. */
async function sealedAgreementPdf(document: AgreementDocument, seal: SigningIdentity, signedAt: Date): Promise<Buffer> {
  return sealAgreementPdf(await renderAgreementPdf(document, seal), seal, signedAt, document.reference);
}

/**
 * The signed agreement rendered and signed again from what is stored (the offer, the application, the
 * signature and the signer's evidence on signed_agreements): the same bytes as the stored file while the
 * application's name and address and the lender's name and certificate are as they were at signing
 * (rendering and RSA signatures are deterministic). Null for an agreement signed before its signature
 * was kept, or when the lender's certificate is no longer the one that signed it.
 */
export async function renderSignedAgreementAgain(agreementId: string, db: DbOrTx = getDb()): Promise<Buffer | null> {
  const [row] = await db.select().from(signedAgreements).where(eq(signedAgreements.id, agreementId)).limit(1);
  if (!row?.signingCertificateSha256) return null;
  const [offer] = await db.select().from(loanOffers).where(eq(loanOffers.id, row.offerId)).limit(1);
  const app = await applicationById(row.applicationId, db);
  const seal = lenderSigningIdentity();
  if (!offer || !app || seal.certificateSha256 !== row.signingCertificateSha256) return null;
  const signature: AgreementSignature | null =
    row.signatureKind === "drawn" ? (row.signaturePng ? { kind: "drawn", png: row.signaturePng } : null) : row.signatureTypedName !== null ? { kind: "typed", name: row.signatureTypedName } : null;
  if (!signature) return null;
  const document = signedAgreementDocument(agreementPreview(offer, app, todayUtc(row.signedAt)), signature, {
    signerName: row.signerName,
    signerEmail: row.signerEmail,
    signedAt: row.signedAt.toISOString(),
    ipAddress: row.ipAddress ?? "",
    userAgent: row.userAgent ?? "",
    consentVersion: row.consentVersion,
    consentedAt: row.consentedAt.toISOString(),
  });
  return sealedAgreementPdf(document, seal, row.signedAt);
}

/**
 * Signs the application's open offer for its owner. Refusals are OfferActionRefused: 404 not the
 * viewer's application, 409 no consent / already signed / declined / a page computed for another day
 * (`signedOn`, the day the signer saw the figures for, when the page posts it), 410 expired or
 * withdrawn, 400 a typed name that is not the applicant's. The signing day's Truth in Lending figures
 * (they depend on it: interest accrues by the day) are stored on the offer by the UPDATE that signs it.
 */
export async function signOffer(
  applicationId: string, signature: SignatureInput, caller: Caller<OfferViewer>, options: { db?: Db; storage?: DocumentStorage; now?: Date; signedOn?: string } = {},
): Promise<SignResult> {
  const { actor: viewer, request } = caller;
  const db = options.db ?? getDb();
  const storage = options.storage ?? getStorage();
  const now = options.now ?? new Date();

  const app = await ownApplication(applicationId, viewer, db);
  if (!app) throw new AppError("offer_action", 404, NOT_FOUND_MESSAGE);
  const offer = await latestOffer(app.id, db);
  const refusal = signingRefusal(offer, now);
  if (refusal || !offer) throw refusal ?? new AppError("offer_action", 409, SIGNING_MESSAGES.noOffer);
  const consent = await currentConsent(app.id, viewer.id, db);
  if (!consent) throw new AppError("offer_action", 409, SIGNING_MESSAGES.noConsent);
  if ((await sanctionsClearance(app.id, db)).state === "confirmed") throw new AppError("offer_action", 409, SIGNING_MESSAGES.frozen);
  if (signature.kind === "typed" && !typedNameMatches(signature.name, app)) {
    throw new AppError("offer_action", 400, `${OFFER_SIGNING_MESSAGES.typedMismatch}: ${nameToType(app)}.`);
  }

  // The figures the signer saw are the page's day's; a page opened before midnight UTC shows other ones.
  const signedOn = todayUtc(now);
  if (options.signedOn !== undefined && options.signedOn !== signedOn) throw new AppError("offer_action", 409, SIGNING_MESSAGES.dayChanged);

  // Render and store first: nothing is committed for a document that does not exist.
  const preview = agreementPreview(offer, app, signedOn);
  // Interest by the day moves the APR with the signing day: never sign one above the cap on this day.
  const aboveCap = aprCapProblem(percentOf(preview.figures.aprMilli), offer, getConfig().maxAprPercent);
  if (aboveCap) throw new AppError("offer_action", 409, SIGNING_MESSAGES.aboveAprCap(formatRate(preview.figures.aprMilli), getConfig().maxAprPercent));
  // A typed signature names its signer as they gave it; a drawn one, as the application names them.
  const signerName = signature.kind === "typed" ? typedSignatureAsGiven(signature.name) : borrowerName(app);
  const userAgent = request.userAgent?.slice(0, 500) ?? "";
  const agreementSignature: AgreementSignature = signature.kind === "drawn" ? { kind: "drawn", png: signature.png } : { kind: "typed", name: typedSignatureAsGiven(signature.name) };
  const document = signedAgreementDocument(preview, agreementSignature, {
    signerName,
    signerEmail: viewer.email,
    signedAt: now.toISOString(),
    ipAddress: request.ip ?? "",
    userAgent,
    consentVersion: consent.version,
    consentedAt: consent.consentedAt.toISOString(),
  });
  const seal = lenderSigningIdentity();
  const bytes = await sealedAgreementPdf(document, seal, now);
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const storageKey = agreementStorageKey(app.id);
  await storage.put(storageKey, bytes, "application/pdf");

  const firstPaymentDue = preview.terms.firstPaymentDue;
  try {
    return await db.transaction(async (tx) => {
      // The consent must still be current: a withdrawal that committed first wins.
      const [held] = await tx
        .select({ id: esignConsents.id })
        .from(esignConsents)
        .where(and(eq(esignConsents.id, consent.id), isNull(esignConsents.withdrawnAt)))
        .for("update");
      if (!held) throw new AppError("offer_action", 409, SIGNING_MESSAGES.noConsent);

      const [signed] = await tx
        .update(loanOffers)
        .set({ status: "signed", decidedAt: now, ...preview.figures })
        .where(and(eq(loanOffers.id, offer.id), eq(loanOffers.status, "offered"), gt(loanOffers.expiresAt, now)))
        .returning({ id: loanOffers.id });
      if (!signed) {
        const again = await tx.select().from(loanOffers).where(eq(loanOffers.id, offer.id)).limit(1);
        throw signingRefusal(again[0] ?? null, now) ?? new AppError("offer_action", 409, SIGNING_MESSAGES.alreadySigned);
      }

      const [agreement] = await tx
        .insert(signedAgreements)
        .values({
          offerId: offer.id,
          applicationId: app.id,
          userId: viewer.id,
          storageKey,
          sha256,
          byteSize: bytes.length,
          signerName,
          signerEmail: viewer.email,
          signatureKind: signature.kind,
          signedAt: now,
          ipAddress: request.ip ?? null,
          userAgent: userAgent || null,
          consentId: consent.id,
          consentVersion: consent.version,
          consentedAt: consent.consentedAt,
          firstPaymentDue,
          signatureTypedName: agreementSignature.kind === "typed" ? agreementSignature.name : null,
          signaturePng: agreementSignature.kind === "drawn" ? Buffer.from(agreementSignature.png) : null,
          signingCertificateSha256: seal.certificateSha256,
        })
        .returning({ id: signedAgreements.id });

      const loan = await openLoan(tx, {
        userId: viewer.id,
        applicationId: app.id,
        offerId: offer.id,
        obligorName: document.borrower.name,
        amountCents: offer.amountCents,
        noteRateMilli: offer.noteRateMilli,
        paymentCents: preview.figures.paymentCents,
        termMonths: offer.termMonths,
        servicingTerms: parseServicingTerms(offer.servicingTerms),
        approvalDate: now,
        startDate: signedOn,
        // The day the figures' interest starts; the ledger's starts at settlement (funded_on), never earlier.
        expectedFundingDate: preview.expectedFundingDate,
        firstPaymentDue,
        maturityDate: preview.maturityDate,
      });

      await recordEvent(tx, {
        applicationId: app.id,
        ownerId: app.userId,
        kind: "agreement_signed",
        actorId: viewer.id,
        actorSide: "applicant",
        summary: `First payment due ${formatAgreementDay(firstPaymentDue)}.`,
      });
      await writeAudit(tx, {
        actor: viewer,
        action: "agreement.sign",
        table: "signed_agreements",
        recordId: agreement!.id,
        details: {
          applicationId: app.id,
          offerId: offer.id,
          loanId: loan.id,
          sha256,
          signingCertificateSha256: seal.certificateSha256,
          byteSize: bytes.length,
          storageKey,
          signatureKind: signature.kind,
          consentId: consent.id,
          consentVersion: consent.version,
          aprPercent: formatRate(preview.figures.aprMilli),
          amountCents: offer.amountCents,
          paymentCents: preview.figures.paymentCents,
          finalPaymentCents: preview.figures.finalPaymentCents,
          financeChargeCents: preview.figures.financeChargeCents,
          totalOfPaymentsCents: preview.figures.totalOfPaymentsCents,
          firstPaymentDue,
          maturityDate: preview.maturityDate,
        },
        request,
      });
      await enqueueEmail(tx, {
        to: viewer.email,
        ...agreementSignedEmail({
          applicantName: borrowerName(app),
          applicationId: app.id,
          reference: preview.reference,
          amountCents: offer.amountCents,
          monthlyPaymentCents: preview.figures.paymentCents,
          firstPaymentDue,
          baseUrl: getConfig().publicUrl,
        }),
      });
      return { offerId: offer.id, loanId: loan.id, agreementId: agreement!.id, sha256, signingCertificateSha256: seal.certificateSha256, firstPaymentDue, storageKey };
    });
  } catch (error) {
    // Nothing names the file: take it back (the orphan sweep would, later).
    await storage.delete(storageKey).catch(() => undefined);
    throw error;
  }
}
