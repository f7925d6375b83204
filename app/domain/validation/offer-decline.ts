import type { ActionResult, Toast } from "~/domain/action-result";
import { z } from "./zod";

/**
 * Decline Offer: the applicant's confirm dialog posts intent=decline to
 * /dashboard/applications/:id/offer-decline. The schema is the intent alone (the application is the
 * route's, the offer is the open one of that application: nothing else is taken from the browser).
 */

export const OFFER_DECLINE_INTENTS = ["decline"] as const;

export const OFFER_DECLINE_MESSAGES = {
  intent: "Unknown action.",
  notFound: "This application was not found.",
  conflict: "This offer can no longer be declined: it was already signed, declined, withdrawn or has expired.",
  failed: "Something went wrong. Please try again.",
} as const;

export const offerDeclineSchema = z.object({ intent: z.literal("decline", { error: OFFER_DECLINE_MESSAGES.intent }) });
export type OfferDeclineInput = z.output<typeof offerDeclineSchema>;

export const OFFER_DECLINE_TOASTS = {
  declined: { type: "success", title: "Offer declined", description: "We have recorded your decision and e-mailed you a confirmation." },
} as const satisfies Record<string, Toast>;

/** The toast title when a decline is refused. */
export const OFFER_DECLINE_FAILED = "Could not decline the offer";

/** What the route answers (JSON): the toast the card shows; `at` tells two equal answers apart. */
export type OfferDeclineActionData = ActionResult<{ intent: "decline" | null; toast: Toast; at: number }>;
