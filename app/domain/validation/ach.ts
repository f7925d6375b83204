import { ACH_RETURN_CODES } from "~/domain/servicing-enums";
import { writtenText } from "./text-fields";
import { z } from "./zod";
import { isoDay } from "../dates";

/**
 * The /admin/ach page's forms: Create ACH Batch, Mark Settled (settlement date), Mark Returned (a
 * NACHA return code and the return date), Cancel Debit (a pending debit not sent yet, with the reason
 * the borrower is told), Mark Refunded (a debit collected after payoff, sent back) and Mark Returned
 * for a prenote (the bank sent the zero-dollar entry back: the account is not validated), Import Return
 * File (the bank's NACHA return file, a multipart upload) and Resolve Flag (a note). One schema,
 * discriminated by intent, used by the page and the action. Pure, no I/O, safe in the browser.
 */

export const ACH_INTENTS = ["create-batch", "settle", "return", "cancel-debit", "refund", "return-prenote", "import-returns", "resolve-flag"] as const;
export type AchIntent = (typeof ACH_INTENTS)[number];

export const ACH_LIMITS = { reasonMaxLength: 500, referenceMaxLength: 80, noteMaxLength: 1000 } as const;

export const ACH_FORM_MESSAGES = {
  intent: "Choose an action: Create ACH Batch, Mark Settled, Mark Returned, Cancel Debit or Mark Refunded.",
  paymentId: "This payment does not exist.",
  validationId: "This prenote does not exist.",
  settledOn: "Enter the settlement date as YYYY-MM-DD.",
  returnedOn: "Enter the return date as YYYY-MM-DD.",
  refundedOn: "Enter the day the refund was sent as YYYY-MM-DD.",
  returnCode: "Choose the return code the bank gave.",
  reasonRequired: "Give the reason for cancelling this debit (the borrower is told).",
  reasonTooLong: `The reason must be at most ${ACH_LIMITS.reasonMaxLength} characters.`,
  referenceRequired: "Enter the refund's reference (check number, wire or ACH reference).",
  referenceTooLong: `The reference must be at most ${ACH_LIMITS.referenceMaxLength} characters.`,
  flagId: "This flag does not exist.",
  noteRequired: "Say what was done about this return (the note is kept with the flag).",
  noteTooLong: `The note must be at most ${ACH_LIMITS.noteMaxLength} characters.`,
  returnFile: "Choose the bank's return file.",
} as const;

const RETURN_CODES = ACH_RETURN_CODES.map((r) => r.code) as [string, ...string[]];

const isoDate = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, message)
    .refine((v) => {
      const d = new Date(`${v}T00:00:00Z`);
      return !Number.isNaN(d.getTime()) && isoDay(d) === v;
    }, message);

const paymentId = z.string({ error: ACH_FORM_MESSAGES.paymentId }).uuid(ACH_FORM_MESSAGES.paymentId);
const flagId = z.string({ error: ACH_FORM_MESSAGES.flagId }).uuid(ACH_FORM_MESSAGES.flagId);
const validationId = z.string({ error: ACH_FORM_MESSAGES.validationId }).uuid(ACH_FORM_MESSAGES.validationId);

const boundedText = (required: string, tooLong: string, max: number) => writtenText({ max, tooLong, required });

export const achActionSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("create-batch") }),
    z.object({ intent: z.literal("settle"), paymentId, settledOn: isoDate(ACH_FORM_MESSAGES.settledOn) }),
    z.object({
      intent: z.literal("return"),
      paymentId,
      returnCode: z.enum(RETURN_CODES, { error: ACH_FORM_MESSAGES.returnCode }),
      returnedOn: isoDate(ACH_FORM_MESSAGES.returnedOn),
    }),
    z.object({
      intent: z.literal("cancel-debit"),
      paymentId,
      reason: boundedText(ACH_FORM_MESSAGES.reasonRequired, ACH_FORM_MESSAGES.reasonTooLong, ACH_LIMITS.reasonMaxLength),
    }),
    z.object({
      intent: z.literal("refund"),
      paymentId,
      refundedOn: isoDate(ACH_FORM_MESSAGES.refundedOn),
      reference: boundedText(ACH_FORM_MESSAGES.referenceRequired, ACH_FORM_MESSAGES.referenceTooLong, ACH_LIMITS.referenceMaxLength),
    }),
    z.object({
      intent: z.literal("return-prenote"),
      validationId,
      returnCode: z.enum(RETURN_CODES, { error: ACH_FORM_MESSAGES.returnCode }),
      returnedOn: isoDate(ACH_FORM_MESSAGES.returnedOn),
    }),
    // The file itself is a multipart field the action reads (its size bounded by the body limit).
    z.object({ intent: z.literal("import-returns") }),
    z.object({ intent: z.literal("resolve-flag"), flagId, note: boundedText(ACH_FORM_MESSAGES.noteRequired, ACH_FORM_MESSAGES.noteTooLong, ACH_LIMITS.noteMaxLength) }),
  ],
  { error: ACH_FORM_MESSAGES.intent },
);
export type AchAction = z.infer<typeof achActionSchema>;

/** The posted form as the schema's input (strings, absent fields undefined). */
export function achFormInput(form: FormData): Record<string, string | undefined> {
  const get = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v : undefined;
  };
  return {
    intent: get("intent"),
    paymentId: get("paymentId"),
    validationId: get("validationId"),
    settledOn: get("settledOn"),
    returnCode: get("returnCode"),
    returnedOn: get("returnedOn"),
    reason: get("reason"),
    refundedOn: get("refundedOn"),
    reference: get("reference"),
    flagId: get("flagId"),
    note: get("note"),
  };
}
