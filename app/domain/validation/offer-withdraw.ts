import type { ActionResult, Toast } from "~/domain/action-result";
import { OFFER_LIMITS } from "~/domain/loan-offers";
import { writtenText } from "./text-fields";
import { intentLiteral } from "./confirm-intent";
import { z } from "./zod";

/**
 * Withdraw Offer (staff): the reason staff give, which the applicant reads on their
 * timeline and in the e-mail. One schema for the dialog (its error under the field) and the route
 * POST /admin/applications/:id/offer (the authority). Line breaks are kept (CRLF → LF), other
 * control characters are refused, the surrounding whitespace is trimmed.
 */

export const OFFER_WITHDRAW_INTENTS = ["withdraw"] as const;
export type OfferWithdrawIntent = (typeof OFFER_WITHDRAW_INTENTS)[number];

export const OFFER_WITHDRAW_MESSAGES = {
  reasonRequired: "Give the reason for withdrawing the offer (the applicant reads it)",
  reasonTooLong: `The reason must be at most ${OFFER_LIMITS.withdrawReasonMaxLength} characters`,
  intent: "Unknown action.",
  notFound: "This application does not exist.",
  conflict: "This offer can no longer be withdrawn: it was already signed, declined, withdrawn or has expired.",
} as const;

export const offerWithdrawSchema = z.object({
  intent: intentLiteral("withdraw"),
  reason: writtenText({ max: OFFER_LIMITS.withdrawReasonMaxLength, tooLong: OFFER_WITHDRAW_MESSAGES.reasonTooLong, required: OFFER_WITHDRAW_MESSAGES.reasonRequired }),
});
export type OfferWithdrawInput = z.output<typeof offerWithdrawSchema>;

/** What POST /admin/applications/:id/offer answers (JSON): the toast, the reason's field error. */
export type OfferWithdrawActionData = ActionResult<{ intent: OfferWithdrawIntent | null; toast: Toast; at: number }>;

export const OFFER_WITHDRAW_TOASTS = {
  withdrawn: { type: "success", title: "Offer withdrawn", description: "The applicant has been told why." },
} as const satisfies Record<string, Toast>;

/** The error toast's title for a refused withdrawal. */
export const WITHDRAW_FAILED = "Failed to withdraw the offer";
