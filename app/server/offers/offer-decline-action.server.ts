import { errorToast } from "~/domain/action-result";
import { OFFER_DECLINE_FAILED, OFFER_DECLINE_MESSAGES, OFFER_DECLINE_TOASTS, offerDeclineSchema, type OfferDeclineActionData } from "~/domain/validation/offer-decline";
import type { RequestInfo } from "~/server/platform/audit/audit.server";
import { readActionForm, type ServiceAnswer } from "~/server/platform/http/action-answer.server";
import { logFailure } from "~/server/platform/log/describe-error.server";
import { declineOffer, OfferDecisionRefused, type OfferDecider } from "./offer-decisions.server";

/**
 * The Decline Offer action behind POST /dashboard/applications/:id/offer-decline (the route has
 * checked the origin and required a signed-in user). The body is one field: anything over 1 KiB is
 * refused (413) before it is parsed, bad input is a 400, a refusal its 404 or 409, never a 500.
 */

/** intent=decline is 14 bytes; a form with more than a little room to spare is not ours. */
export const OFFER_DECLINE_MAX_BYTES = 1024;

export type OfferDeclineAnswer = ServiceAnswer<OfferDeclineActionData>;

function refusal(status: number, message: string, intent: "decline" | null = "decline"): OfferDeclineAnswer {
  return { status, body: { ok: false, intent, toast: errorToast(OFFER_DECLINE_FAILED, message), at: Date.now() } };
}

export async function offerDeclineAction(request: Request, applicationId: string, user: OfferDecider, info: RequestInfo = {}): Promise<OfferDeclineAnswer> {
  const read = await readActionForm(request, (message): OfferDeclineActionData => refusal(400, message, null).body, {
    limitBytes: OFFER_DECLINE_MAX_BYTES,
    unreadableAsEmpty: true,
  });
  if (!read.ok) return read.answer;
  const parsed = offerDeclineSchema.safeParse({ intent: read.form.get("intent") ?? undefined });
  if (!parsed.success) return refusal(400, OFFER_DECLINE_MESSAGES.intent, null);
  try {
    await declineOffer(applicationId, user, info);
    return { status: 200, body: { ok: true, intent: "decline", toast: OFFER_DECLINE_TOASTS.declined, at: Date.now() } };
  } catch (error) {
    if (error instanceof OfferDecisionRefused) return refusal(error.status, error.message);
    logFailure("offers", "offer decline failed", error);
    return refusal(503, OFFER_DECLINE_MESSAGES.failed);
  }
}
