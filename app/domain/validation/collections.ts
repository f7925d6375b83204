import type { ActionResult, Toast } from "~/domain/action-result";
import { COLLECTIONS_LIMITS, CONTACT_CHANNELS, CONTACT_OUTCOMES } from "~/domain/collections-enums";
import { addDays, isRealDay } from "~/domain/dates";
import { centsFromDollars } from "~/domain/money";
import { moneyField } from "./figure-fields";
import { CONTROL_CHARACTER_MESSAGE, hasNoControlCharacters } from "./text-rules";
import { intentSchemas, writtenText } from "./text-fields";
import { z } from "./zod";

/**
 * The collections forms: Assign to Me (the queue and the loan's Collections panel), Log Contact,
 * Promise to Pay and Cancel Promise (the panel, POST /admin/loans/:id/collections). One schema per
 * form, shared by the browser (errors under the fields) and the action (the authority). Days are
 * 'yyyy-MM-dd'; `today` is the server's UTC day.
 */

export const COLLECTIONS_INTENTS = ["assign-to-me", "log-contact", "promise-to-pay", "cancel-promise"] as const;
export type CollectionsIntent = (typeof COLLECTIONS_INTENTS)[number];

export const COLLECTIONS_FORM_LIMITS = {
  /** A promise is for a payment soon: at most this many days ahead. */
  promiseMaxDaysAhead: 60,
  /** A next action is planned at most this far ahead. */
  nextActionMaxDaysAhead: 365,
  promiseMaxDollars: 10_000_000,
} as const;

export const COLLECTIONS_MESSAGES = {
  intent: "Unknown action.",
  loanNotFound: "This loan does not exist.",
  channel: "Choose how you contacted the borrower: Call, E-mail, Letter or Text",
  outcome: "Choose the outcome of the contact",
  noteTooLong: `The note must be at most ${COLLECTIONS_LIMITS.noteMaxLength} characters`,
  nextActionTooLong: `The next action must be at most ${COLLECTIONS_LIMITS.nextActionMaxLength} characters`,
  nextActionNeeded: "Say what the next action is, or clear its date",
  nextActionOn: `Enter the next action's date (yyyy-MM-dd), from today up to ${COLLECTIONS_FORM_LIMITS.nextActionMaxDaysAhead} days ahead`,
  amount: `Enter the promised amount, between $0.01 and $${COLLECTIONS_FORM_LIMITS.promiseMaxDollars.toLocaleString("en-US")} (at most two decimals)`,
  promisedOn: `Enter the day the borrower promised to pay by (yyyy-MM-dd), from today up to ${COLLECTIONS_FORM_LIMITS.promiseMaxDaysAhead} days ahead`,
  promiseId: "This promise does not exist.",
  notWorkable: "This loan is not in collections: only an active loan takes contacts and promises.",
  protected: (what: string) => `Collections contact has stopped on this loan: ${what}. Log Contact and Promise to Pay are refused while it lasts.`,
  takenByOther: (name: string) => `${name} already works this loan: it was assigned before your request.`,
  promiseNotOpen: "Only an open promise can be cancelled; this one was already kept, broken or cancelled.",
} as const;

const day = (message: string, today: string, maxAhead: number) =>
  z
    .string({ error: message })
    .transform((value) => value.trim())
    .pipe(
      z
        .string()
        .refine(isRealDay, message)
        .refine((value) => value >= today && value <= addDays(today, maxAhead), message),
    );

const optionalLine = (max: number, tooLong: string) =>
  z
    .string({ error: tooLong })
    .optional()
    .transform((value) => (value ?? "").trim())
    .pipe(z.string().max(max, tooLong).refine(hasNoControlCharacters, CONTROL_CHARACTER_MESSAGE));

export const assignToMeSchema = z.object({ intent: z.literal("assign-to-me", { error: COLLECTIONS_MESSAGES.intent }) });

/** Log Contact: channel, outcome, an optional note, and optionally the next action with its date. */
export function logContactSchema(today: string) {
  return z
    .object({
      intent: z.literal("log-contact", { error: COLLECTIONS_MESSAGES.intent }),
      channel: z.enum(CONTACT_CHANNELS, { error: COLLECTIONS_MESSAGES.channel }),
      outcome: z.enum(CONTACT_OUTCOMES, { error: COLLECTIONS_MESSAGES.outcome }),
      note: writtenText({ max: COLLECTIONS_LIMITS.noteMaxLength, tooLong: COLLECTIONS_MESSAGES.noteTooLong }).optional().transform((v) => v || null),
      nextAction: optionalLine(COLLECTIONS_LIMITS.nextActionMaxLength, COLLECTIONS_MESSAGES.nextActionTooLong).transform((v) => v || null),
      nextActionOn: z
        .string({ error: COLLECTIONS_MESSAGES.nextActionOn })
        .optional()
        .transform((v) => (v ?? "").trim())
        .pipe(z.union([z.literal(""), day(COLLECTIONS_MESSAGES.nextActionOn, today, COLLECTIONS_FORM_LIMITS.nextActionMaxDaysAhead)], { error: COLLECTIONS_MESSAGES.nextActionOn }))
        .transform((v) => v || null),
    })
    .superRefine((value, ctx) => {
      if (value.nextActionOn && !value.nextAction) ctx.addIssue({ code: "custom", path: ["nextAction"], message: COLLECTIONS_MESSAGES.nextActionNeeded });
    });
}
export type LogContactInput = z.output<ReturnType<typeof logContactSchema>>;

/** Promise to Pay: the amount and the day the borrower promised to pay it by. */
export function promiseToPaySchema(today: string) {
  return z.object({
    intent: z.literal("promise-to-pay", { error: COLLECTIONS_MESSAGES.intent }),
    amount: moneyField(COLLECTIONS_MESSAGES.amount, { maxWholeDigits: 8, minCents: 1, maxCents: centsFromDollars(COLLECTIONS_FORM_LIMITS.promiseMaxDollars) }),
    promisedOn: day(COLLECTIONS_MESSAGES.promisedOn, today, COLLECTIONS_FORM_LIMITS.promiseMaxDaysAhead),
  });
}
export type PromiseToPayInput = z.output<ReturnType<typeof promiseToPaySchema>>;

export const cancelPromiseSchema = z.object({
  intent: z.literal("cancel-promise", { error: COLLECTIONS_MESSAGES.intent }),
  promiseId: z.uuid({ error: COLLECTIONS_MESSAGES.promiseId }).transform((v) => v.toLowerCase()),
});

/** The schema of a posted intent (null: unknown, "constructor" and the like included). */
export function collectionsSchemaFor(intent: unknown, today: string) {
  return intentSchemas({
    "assign-to-me": assignToMeSchema,
    "log-contact": logContactSchema(today),
    "promise-to-pay": promiseToPaySchema(today),
    "cancel-promise": cancelPromiseSchema,
  })(intent);
}

/** What the collections actions answer: the toast (shown once per post) and the fields' errors. */
export type CollectionsActionData = ActionResult<{ intent: CollectionsIntent | null; toast: Toast; at: number }>;

export const COLLECTIONS_FAILED: Record<CollectionsIntent, string> = {
  "assign-to-me": "Failed to assign the loan",
  "log-contact": "Failed to log the contact",
  "promise-to-pay": "Failed to record the promise",
  "cancel-promise": "Failed to cancel the promise",
};

export const COLLECTIONS_TOASTS = {
  assigned: { type: "success", title: "Assigned to you", description: "The loan is in your collections queue." },
  contactLogged: { type: "success", title: "Contact logged", description: "It is in the loan's contact history." },
  promiseRecorded: { type: "success", title: "Promise recorded", description: "It closes itself as kept when the payments post by its date." },
  promiseCancelled: { type: "success", title: "Promise cancelled" },
} as const satisfies Record<string, Toast>;

/** The queue's filters in the URL (?show=mine|unassigned). */
export const COLLECTIONS_FILTERS = ["all", "mine", "unassigned"] as const;
export type CollectionsFilter = (typeof COLLECTIONS_FILTERS)[number];
export const COLLECTIONS_FILTER_LABELS: Record<CollectionsFilter, string> = { all: "All", mine: "Assigned to Me", unassigned: "Unassigned" };

