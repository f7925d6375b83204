import { ACH_RETURN_CODES } from "~/domain/servicing-enums";
import { z } from "./zod";

/**
 * The /admin/ach page's forms (issue 21): Create ACH Batch, Mark Settled (settlement date) and Mark
 * Returned (a NACHA return code). One schema, discriminated by intent, used by the page and the action.
 * Pure, no I/O, safe in the browser.
 */

export const ACH_INTENTS = ["create-batch", "settle", "return"] as const;
export type AchIntent = (typeof ACH_INTENTS)[number];

export const ACH_FORM_MESSAGES = {
  intent: "Choose an action: Create ACH Batch, Mark Settled or Mark Returned.",
  paymentId: "This payment does not exist.",
  settledOn: "Enter the settlement date as YYYY-MM-DD.",
  returnCode: "Choose the return code the bank gave.",
} as const;

const RETURN_CODES = ACH_RETURN_CODES.map((r) => r.code) as [string, ...string[]];

const isoDate = z
  .string({ error: ACH_FORM_MESSAGES.settledOn })
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, ACH_FORM_MESSAGES.settledOn)
  .refine((v) => {
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
  }, ACH_FORM_MESSAGES.settledOn);

const paymentId = z.string({ error: ACH_FORM_MESSAGES.paymentId }).uuid(ACH_FORM_MESSAGES.paymentId);

export const achActionSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("create-batch") }),
    z.object({ intent: z.literal("settle"), paymentId, settledOn: isoDate }),
    z.object({ intent: z.literal("return"), paymentId, returnCode: z.enum(RETURN_CODES, { error: ACH_FORM_MESSAGES.returnCode }) }),
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
  return { intent: get("intent"), paymentId: get("paymentId"), settledOn: get("settledOn"), returnCode: get("returnCode") };
}
