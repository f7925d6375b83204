import { z } from "./zod";
import { CONTROL_CHARACTER_MESSAGE, hasNoControlCharacters } from "./text-rules";
import { LOAN_TYPES } from "~/domain/enums";
import { APPLICATION_MESSAGES, bankInfoSchema, financialInfoSchema, loanDetailsSchema, personalInfoSchema } from "./application";

/**
 * Save and Finish Later: the wizard's server-side draft, posted to /api/drafts. A draft may
 * be incomplete, so each field present is checked alone with the very rule its wizard step applies
 * (the step schemas' fields); an empty field is simply not answered yet. What no step could accept
 * (a wrong value, a control character, an over-long text) is refused, so the draft never holds what
 * the submission would refuse to read. Cross-field rules (a loan type's amount range, an employer for
 * the employed) wait for the submission, which runs the whole schemas.
 */

/** The intents /api/drafts answers (the authorization matrix walks them). */
export const DRAFT_INTENTS = ["save", "discard"] as const;
export type DraftIntent = (typeof DRAFT_INTENTS)[number];

/** Drafts are removed this long after their last save (the retention job). */
export const DRAFT_LIFETIME_DAYS = 30;

/** Encrypted at rest like the submission's columns; the browser only ever gets their last digits. */
export const SENSITIVE_DRAFT_FIELDS = ["ssn", "accountNumber", "routingNumber"] as const;
export type SensitiveDraftField = (typeof SENSITIVE_DRAFT_FIELDS)[number];

const FIELD_RULES: Record<string, z.ZodType> = {
  ...personalInfoSchema.shape,
  ...loanDetailsSchema.shape,
  ...financialInfoSchema.shape,
  ...bankInfoSchema.shape,
};

/** Every text field a draft may carry: the submission's, without the consent (given afresh at the end). */
export const DRAFT_TEXT_FIELDS = Object.keys(FIELD_RULES) as readonly string[];

export const DRAFT_MESSAGES = {
  intent: "Unknown action.",
  loanType: "Choose a loan type on step 2 before saving your application.",
  step: "The step must be a number from 1 to 5.",
  saved: "Your application is saved. You can finish it from your dashboard on any device within 30 days.",
  discarded: "Your saved application was discarded.",
  staff: "Saving an application is for applicants' own accounts.",
  signIn: "Please sign in to save your application",
  failed: "Your application could not be saved. Please try again.",
  notFound: "There is no saved application for this loan type.",
} as const;

const loanType = z.enum(LOAN_TYPES, { error: DRAFT_MESSAGES.loanType });

/** The draft form's envelope: what is saved where. The fields themselves are checked by checkDraftFields. */
export const draftEnvelopeSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("save"),
    loanType,
    step: z
      .string({ error: DRAFT_MESSAGES.step })
      .regex(/^[1-5]$/, DRAFT_MESSAGES.step)
      .transform(Number),
    /** The loan type the wizard's draft was saved under before the applicant changed it (the draft moves). */
    fromLoanType: z
      .union([z.literal(""), loanType])
      .optional()
      .transform((v) => (v ? v : undefined)),
  }),
  z.object({ intent: z.literal("discard"), loanType }),
]);
export type DraftEnvelope = z.output<typeof draftEnvelopeSchema>;

export type DraftFieldProblem = { field: string; message: string };

/**
 * The fields present, each checked by its step's rule: the values as typed (trimmed) for the ones
 * that pass, or the first field that does not. Empty fields are left out (not answered yet).
 */
export function checkDraftFields(raw: Record<string, string>): { ok: true; value: Record<string, string> } | { ok: false; problem: DraftFieldProblem } {
  const value: Record<string, string> = {};
  for (const [field, typed] of Object.entries(raw)) {
    const rule = FIELD_RULES[field];
    if (!rule) return { ok: false, problem: { field, message: `Unexpected field: ${field.slice(0, 64)}` } };
    if (!hasNoControlCharacters(typed)) return { ok: false, problem: { field, message: CONTROL_CHARACTER_MESSAGE } };
    const trimmed = typed.trim();
    if (isFlag(field) && trimmed !== "" && trimmed !== "true") return { ok: false, problem: { field, message: `Unexpected value for ${field}.` } };
    if (trimmed === "") continue;
    const result = rule.safeParse(trimmed);
    if (!result.success) return { ok: false, problem: { field, message: result.error.issues[0]?.message ?? APPLICATION_MESSAGES.requiredStep1 } };
    value[field] = trimmed;
  }
  return { ok: true, value };
}

const FLAGS = new Set(["hasOutstandingLoans", "authorizeCreditReport"]);
export function isFlag(field: string): boolean {
  return FLAGS.has(field);
}

/** What the browser is shown of a kept sensitive value: its last digits only (the review step's masks). */
export function maskKeptValue(field: SensitiveDraftField, digits: string): string {
  if (field === "routingNumber") return `•••••••${digits.slice(-2)}`;
  return `•••••${digits.slice(-4)}`;
}
