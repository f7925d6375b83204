import { OFFER_DECLINE } from "~/domain/validation/offer-decline";
import { CONFIRM_INTENT_MAX_BYTES, defineConfirmIntentAction } from "~/server/platform/http/confirm-intent-action.server";
import { declineOffer, type OfferDecider } from "./offer-decisions.server";

/**
 * The Decline Offer action behind POST /dashboard/applications/:id/offer-decline: the form is
 * intent=decline alone (anything else is 400 "Unknown action.", on no field), anything over 1 KiB is
 * refused (413) before it is parsed, a refusal is its 404 or 409, never a 500.
 */

export const OFFER_DECLINE_MAX_BYTES = CONFIRM_INTENT_MAX_BYTES;

/** OFFER_DECLINE_FORM is what the route reads; offerDeclineAction declines once it has. */
export const { form: OFFER_DECLINE_FORM, act: offerDeclineAction } = defineConfirmIntentAction<"decline", OfferDecider>(
  OFFER_DECLINE,
  declineOffer,
  ["offers", "offer decline failed"],
);
