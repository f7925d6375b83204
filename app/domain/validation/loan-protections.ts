import type { ActionResult, Toast } from "~/domain/action-result";
import { COLLECTIONS_LIMITS, PROTECTION_KINDS } from "~/domain/collections-enums";
import { isRealDay } from "../dates";
import { CONTROL_CHARACTER_MESSAGE, hasNoControlCharacters } from "./text-rules";
import { intentSchemas, writtenText } from "./text-fields";
import { z } from "./zod";

/**
 * The Protections panel of the staff loan page (POST /admin/loans/:id/protections): Record Protection
 * (an active-duty servicemember or a bankruptcy filing, from its start day, with the orders or the case
 * number and court) and End Protection (the end of active duty, or the case dismissed or discharged).
 * One schema per form, shared by the browser and the server. Pure, safe in the browser.
 */

export const PROTECTION_INTENTS = ["record-protection", "end-protection"] as const;
export type ProtectionIntent = (typeof PROTECTION_INTENTS)[number];

/** How a bankruptcy case ended (kept in the audit row and the protection's note). */
export const BANKRUPTCY_OUTCOMES = ["dismissed", "discharged"] as const;
export const BANKRUPTCY_OUTCOME_LABELS: Record<(typeof BANKRUPTCY_OUTCOMES)[number], string> = { dismissed: "Dismissed", discharged: "Discharged" };

export const PROTECTION_MESSAGES = {
  intent: "Unknown action.",
  kind: "Choose the protection: active-duty servicemember or bankruptcy filing.",
  startsOn: "Enter the start day (yyyy-MM-dd): the start of active duty or the filing date.",
  startsInFuture: "The start day cannot be in the future.",
  endsOn: "Enter the end day (yyyy-MM-dd).",
  endsBeforeStart: "The end day cannot be before the start day.",
  endsInFuture: "A bankruptcy case cannot have ended after today.",
  referenceRequired: "Enter the reference: the orders for active duty, the case number and court for a bankruptcy.",
  referenceTooLong: `The reference must be at most ${COLLECTIONS_LIMITS.referenceMaxLength} characters.`,
  noteTooLong: `The note must be at most ${COLLECTIONS_LIMITS.noteMaxLength} characters.`,
  protectionId: "This protection does not exist on this loan.",
  outcome: "Choose how the case ended: dismissed or discharged.",
  loanNotFound: "This loan does not exist.",
  alreadyActive: "This loan already has an active protection of this kind: end it first.",
  alreadyEnded: "This protection was already ended.",
  endBeforeStart: "The end day cannot be before the protection's start day.",
  notServiced: "Protections are recorded on a funded loan that is being serviced.",
} as const;

const day = (message: string) =>
  z
    .string({ error: message })
    .transform((value) => value.trim())
    .pipe(z.string().refine(isRealDay, message));

const optionalDay = (message: string) =>
  z
    .string()
    .optional()
    .transform((value) => value?.trim() || undefined)
    .pipe(z.string().refine(isRealDay, message).optional());

/** Record Protection's form. `today` is 'yyyy-MM-dd' (UTC on the server). */
export function recordProtectionSchema(today: string) {
  return z
    .object({
      intent: z.literal("record-protection"),
      kind: z.enum(PROTECTION_KINDS, { error: PROTECTION_MESSAGES.kind }),
      startsOn: day(PROTECTION_MESSAGES.startsOn).refine((value) => value <= today, PROTECTION_MESSAGES.startsInFuture),
      endsOn: optionalDay(PROTECTION_MESSAGES.endsOn),
      reference: z
        .string({ error: PROTECTION_MESSAGES.referenceRequired })
        .transform((value) => value.trim())
        .pipe(
          z
            .string()
            .min(1, PROTECTION_MESSAGES.referenceRequired)
            .max(COLLECTIONS_LIMITS.referenceMaxLength, PROTECTION_MESSAGES.referenceTooLong)
            .refine(hasNoControlCharacters, CONTROL_CHARACTER_MESSAGE),
        ),
      note: writtenText({ max: COLLECTIONS_LIMITS.noteMaxLength, tooLong: PROTECTION_MESSAGES.noteTooLong }).optional(),
    })
    .superRefine((value, ctx) => {
      if (value.endsOn && value.endsOn < value.startsOn) ctx.addIssue({ code: "custom", path: ["endsOn"], message: PROTECTION_MESSAGES.endsBeforeStart });
      if (value.endsOn && value.kind === "bankruptcy" && value.endsOn > today) ctx.addIssue({ code: "custom", path: ["endsOn"], message: PROTECTION_MESSAGES.endsInFuture });
    });
}
export type RecordProtectionForm = z.output<ReturnType<typeof recordProtectionSchema>>;

/** End Protection's form: the end day (the last day of active duty, or the day the case ended) and, for a bankruptcy, how it ended. */
export const endProtectionSchema = z.object({
  intent: z.literal("end-protection"),
  protectionId: z.uuid({ error: PROTECTION_MESSAGES.protectionId }),
  endsOn: day(PROTECTION_MESSAGES.endsOn),
  outcome: z.enum(BANKRUPTCY_OUTCOMES, { error: PROTECTION_MESSAGES.outcome }).optional(),
});
export type EndProtectionForm = z.output<typeof endProtectionSchema>;

export function protectionIntentSchema(today: string) {
  return intentSchemas({ "record-protection": recordProtectionSchema(today), "end-protection": endProtectionSchema });
}

export type ProtectionActionData = ActionResult<{ intent: ProtectionIntent | null; toast: Toast; at: number }>;

export const PROTECTION_FAILED: Record<ProtectionIntent, string> = {
  "record-protection": "Protection not recorded",
  "end-protection": "Protection not ended",
};
