import type { ActionResult, Toast } from "~/domain/action-result";
import { UUID_PATTERN } from "~/domain/ids";
import { writtenText } from "./text-fields";
import { z } from "./zod";

/**
 * Clear Match and Confirm Match on a potential sanctions match (staff application page). One schema for
 * the dialogs (the error under the Reason) and POST /admin/applications/:id/sanctions (the authority).
 * The reason is for the file and the examiners, never for the applicant: 10 to 1000 characters,
 * line breaks kept, other control characters refused.
 */

export const SANCTIONS_DECISION_INTENTS = ["clear-match", "confirm-match"] as const;
export type SanctionsDecisionIntent = (typeof SANCTIONS_DECISION_INTENTS)[number];

export const SANCTIONS_REASON_LIMITS = { min: 10, max: 1000 } as const;

export const SANCTIONS_DECISION_MESSAGES = {
  intent: "Unknown action.",
  match: "Choose the potential match to decide.",
  reasonRequired: "Give the reason for your decision",
  reasonTooShort: `The reason must be at least ${SANCTIONS_REASON_LIMITS.min} characters`,
  reasonTooLong: `The reason must be at most ${SANCTIONS_REASON_LIMITS.max} characters`,
  notFound: "This application does not exist.",
  matchNotFound: "This potential match does not exist on this application.",
  decided: "This potential match was already decided. The page now shows the decision.",
  frozen: "A sanctions match on this application was confirmed: it is frozen and takes no further decision.",
} as const;

const reason = writtenText({
  max: SANCTIONS_REASON_LIMITS.max,
  tooLong: SANCTIONS_DECISION_MESSAGES.reasonTooLong,
  required: SANCTIONS_DECISION_MESSAGES.reasonRequired,
}).refine((text) => text.length >= SANCTIONS_REASON_LIMITS.min, SANCTIONS_DECISION_MESSAGES.reasonTooShort);

const matchId = z
  .string({ error: SANCTIONS_DECISION_MESSAGES.match })
  .regex(UUID_PATTERN, SANCTIONS_DECISION_MESSAGES.match)
  .transform((id) => id.toLowerCase());

export const sanctionsDecisionSchema = z.discriminatedUnion(
  "intent",
  [z.object({ intent: z.literal("clear-match"), matchId, reason }), z.object({ intent: z.literal("confirm-match"), matchId, reason })],
  { error: SANCTIONS_DECISION_MESSAGES.intent },
);
export type SanctionsDecisionInput = z.output<typeof sanctionsDecisionSchema>;

/** What POST /admin/applications/:id/sanctions answers (JSON): the toast and the reason's field error. */
export type SanctionsDecisionActionData = ActionResult<{ intent: SanctionsDecisionIntent | null; toast: Toast; at: number }>;

export const SANCTIONS_DECISION_FAILED = "Failed to record the sanctions decision";

export const SANCTIONS_DECISION_TOASTS = {
  cleared: { type: "success", title: "Match cleared", description: "The entry is not flagged again unless the list changes it." },
  confirmed: { type: "success", title: "Match confirmed", description: "The application is frozen and cannot be funded; every admin has been told." },
} as const satisfies Record<string, Toast>;
