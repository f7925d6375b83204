import { errorToast } from "~/domain/action-result";
import {
  OFFER_DECLINE_FAILED,
  OFFER_DECLINE_MESSAGES,
  OFFER_DECLINE_TOASTS,
  offerDeclineSchema,
  type OfferDeclineActionData,
  type OfferDeclineInput,
} from "~/domain/validation/offer-decline";
import type { RequestInfo } from "~/server/platform/audit/audit.server";
import type { ActionForm, ServiceAnswer } from "~/server/platform/http/action-answer.server";
import { logFailure } from "~/server/platform/log/describe-error.server";
import { declineOffer, type OfferDecider } from "./offer-decisions.server";
import { AppError, actionRefusal } from "~/server/platform/http/app-error.server";

/**
 * The Decline Offer action behind POST /dashboard/applications/:id/offer-decline (the route has
 * checked the origin, required a signed-in user and read its form). The body is one field: anything over 1 KiB is
 * refused (413) before it is parsed, bad input is a 400, a refusal its 404 or 409, never a 500.
 */

/** intent=decline is 14 bytes; a form with more than a little room to spare is not ours. */
export const OFFER_DECLINE_MAX_BYTES = 1024;

export type OfferDeclineAnswer = ServiceAnswer<OfferDeclineActionData>;

function refusal(status: number, message: string, intent: "decline" | null = "decline"): OfferDeclineAnswer {
  return { status, body: { ok: false, intent, toast: errorToast(OFFER_DECLINE_FAILED, message), at: Date.now() } };
}

/** The form: intent=decline alone (anything else is 400 "Unknown action.", on no field). */
export const OFFER_DECLINE_FORM: ActionForm<OfferDeclineInput, OfferDeclineActionData> = {
  schema: offerDeclineSchema,
  limitBytes: OFFER_DECLINE_MAX_BYTES,
  unreadableAsEmpty: true,
  refuse: (message) => refusal(400, message, null).body,
};

/** Declines once the route has read the form (OFFER_DECLINE_FORM). */
export async function offerDeclineAction(applicationId: string, user: OfferDecider, info: RequestInfo = {}): Promise<OfferDeclineAnswer> {
  try {
    await declineOffer(applicationId, user, info);
    return { status: 200, body: { ok: true, intent: "decline", toast: OFFER_DECLINE_TOASTS.declined, at: Date.now() } };
  } catch (error) {
    if (error instanceof AppError) return actionRefusal(error, { title: OFFER_DECLINE_FAILED, stamped: true }, { intent: "decline" as const });
    logFailure("offers", "offer decline failed", error);
    return refusal(503, OFFER_DECLINE_MESSAGES.failed);
  }
}
