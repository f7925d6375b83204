import { confirmIntentForm, type ConfirmIntentActionData } from "./confirm-intent";

/**
 * Decline Offer: the applicant's confirm dialog posts intent=decline to
 * /dashboard/applications/:id/offer-decline. The schema is the intent alone (the application is the
 * route's, the offer is the open one of that application: nothing else is taken from the browser).
 */
export const OFFER_DECLINE = confirmIntentForm("decline", {
  failedTitle: "Could not decline the offer",
  messages: {
    notFound: "This application was not found.",
    conflict: "This offer can no longer be declined: it was already signed, declined, withdrawn or has expired.",
  },
  done: { type: "success", title: "Offer declined", description: "We have recorded your decision and e-mailed you a confirmation." },
});

export const { intents: OFFER_DECLINE_INTENTS, messages: OFFER_DECLINE_MESSAGES } = OFFER_DECLINE;
export type OfferDeclineActionData = ConfirmIntentActionData<"decline">;
