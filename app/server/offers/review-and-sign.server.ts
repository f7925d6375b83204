import { eq } from "drizzle-orm";
import { errorToast, type Toast } from "~/domain/action-result";
import { offerStatusLabel } from "~/domain/loan-offers";
import { issuesToFieldErrors } from "~/domain/validation/field-errors";
import { decodePngDataUrl, MAX_SIGN_FORM_BYTES, offerSigningSchemaFor, type OfferSigningActionData, type OfferSigningIntent } from "~/domain/validation/offer-signing";
import { formatAgreementDay, type ReviewAndSignPageData } from "~/domain/views/agreement-preview";
import type { Caller } from "~/server/platform/audit/audit.server";
import { todayUtc } from "~/domain/dates";
import { getDb, type Db } from "~/server/platform/db/client.server";
import { signedAgreements } from "~/server/platform/db/schema.server";
import { readActionForm, type ServiceAnswer } from "~/server/platform/http/action-answer.server";
import { logFailure } from "~/server/platform/log/describe-error.server";
import { nameToType } from "~/domain/signer-names";
import { agreementPreview } from "./agreement-document.server";
import { currentConsent, giveConsent, ownApplication, withdrawConsent, type OfferViewer } from "./consent.server";
import { latestOffer, signingRefusal, signOffer, SIGNING_MESSAGES } from "./sign-agreement.server";
import { isAppError } from "~/server/platform/http/app-error.server";

/**
 * The Review and Sign page (/dashboard/applications/:id/offer): what it shows and what its
 * form posts do (consent | withdraw-consent | sign). Owner only: another person's application, a
 * malformed id and staff are "not found".
 */

/** The page's data, or null (the route answers 404). */
export async function loadReviewAndSign(applicationId: unknown, viewer: OfferViewer, db: Db = getDb(), now: Date = new Date()): Promise<ReviewAndSignPageData | null> {
  const app = await ownApplication(applicationId, viewer, db);
  if (!app) return null;
  const [offer, consent] = await Promise.all([latestOffer(app.id, db), currentConsent(app.id, viewer.id, db)]);
  const base = {
    applicationId: app.id,
    statusLabel: offer ? offerStatusLabel(offer.status) : null,
    expiresAt: offer?.expiresAt.toISOString() ?? null,
    consent: consent ? { version: consent.version, consentedAt: consent.consentedAt.toISOString() } : null,
    signerName: nameToType(app),
    agreement: null,
    firstPaymentDue: null,
    closedMessage: null,
  } satisfies Omit<ReviewAndSignPageData, "state">;
  if (offer?.status === "signed") {
    const [signed] = await db.select({ firstPaymentDue: signedAgreements.firstPaymentDue }).from(signedAgreements).where(eq(signedAgreements.offerId, offer.id)).limit(1);
    return { ...base, state: "signed", closedMessage: SIGNING_MESSAGES.alreadySigned, firstPaymentDue: signed?.firstPaymentDue ?? null };
  }
  const refusal = signingRefusal(offer, now);
  if (refusal || !offer) return { ...base, state: "closed", closedMessage: refusal?.message ?? SIGNING_MESSAGES.noOffer };
  if (!consent) return { ...base, state: "consent" };
  return { ...base, state: "sign", agreement: agreementPreview(offer, app, todayUtc(now)) };
}

export type OfferPageAnswer = ServiceAnswer<OfferSigningActionData> | { redirect: string; toast: Toast };

const TITLES: Record<OfferSigningIntent, string> = {
  consent: "Consent not recorded",
  "withdraw-consent": "Consent not withdrawn",
  sign: "Agreement not signed",
};

function answer(status: number, intent: OfferSigningIntent | null, toast: Toast, extra: Partial<OfferSigningActionData> = {}): OfferPageAnswer {
  return { status, body: { ok: status < 300, intent, toast, at: Date.now(), ...extra } };
}

function formValues(form: FormData): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of form.entries()) if (typeof value === "string" && !(key in values)) values[key] = value;
  return values;
}

/** The page's action after the guard (requireUser) and the same-origin check. */
export async function reviewAndSignAction(request: Request, urlId: string | undefined, caller: Caller<OfferViewer>, db: Db = getDb()): Promise<OfferPageAnswer> {
  const viewer = caller.actor;
  const read = await readActionForm(request, (message): OfferSigningActionData => ({ ok: false, intent: null, toast: errorToast("Request refused", message), at: Date.now() }), {
    limitBytes: MAX_SIGN_FORM_BYTES,
  });
  if (!read.ok) return read.answer;
  const app = await ownApplication(urlId, viewer, db);
  if (!app) return answer(404, null, errorToast("Not found", "This application does not exist."));

  const values = formValues(read.form);
  const schema = offerSigningSchemaFor(values.intent);
  if (!schema) return answer(400, null, errorToast("Request refused", "Unknown action."));
  const intent = values.intent as OfferSigningIntent;
  const title = TITLES[intent];
  const parsed = schema.safeParse(values);
  if (!parsed.success) {
    const first = parsed.error.issues[0]?.message ?? "Check the form and try again.";
    return answer(400, intent, errorToast(title, first), { fieldErrors: issuesToFieldErrors(parsed.error) });
  }
  const input = parsed.data;
  try {
    switch (input.intent) {
      case "consent": {
        const { created } = await giveConsent(app.id, caller, db);
        return answer(200, intent, { type: "success", title: created ? "E-SIGN consent recorded" : "E-SIGN consent already recorded", description: "You can now review and sign your loan agreement." });
      }
      case "withdraw-consent":
        await withdrawConsent(app.id, caller, db);
        return answer(200, intent, {
          type: "success",
          title: "E-SIGN consent withdrawn",
          description: "We will send you the agreement on paper to sign and return. Send us a message if you have questions.",
        });
      case "sign": {
        const signature =
          input.signatureKind === "drawn" ? { kind: "drawn" as const, png: decodePngDataUrl(input.signaturePng)! } : { kind: "typed" as const, name: input.typedName };
        const result = await signOffer(app.id, signature, caller, { db, signedOn: input.signedOn });
        return {
          redirect: `/dashboard/applications/${app.id}`,
          toast: { type: "success", title: "Loan agreement signed", description: `Your loan is active. The first payment is due ${formatAgreementDay(result.firstPaymentDue)}. Download your signed agreement from this page.` },
        };
      }
    }
  } catch (error) {
    if (isAppError(error, "offer_action")) return answer(error.status, intent, errorToast(title, error.message), error.status === 400 ? { fieldErrors: { typedName: [error.message] } } : {});
    logFailure("applicant", `${intent} failed`, error, { user: viewer.id, applicationId: app.id });
    return answer(500, intent, errorToast(title, "Something went wrong on our side. Please try again."));
  }
  return answer(400, null, errorToast("Request refused", "Unknown action."));
}
