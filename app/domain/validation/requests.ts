import type { ActionResult } from "~/domain/action-result";
import { REQUEST_ITEM_KINDS, CONVERSATION_LIMITS } from "~/domain/conversation-enums";
import { formatCount } from "~/domain/formats";
import { writtenText } from "./text-fields";
import { isoDateAfter, REQUEST_DUE_MAX_DAYS } from "./conversation-rules";
import { z } from "./zod";
import { isoDay } from "../dates";

/**
 * What We Need: the forms of the lender's requests and the applicant's answers, shared by
 * the panel (app/components/application/what-we-need-panel.tsx) and the two action routes
 * (dashboard/applications/:id/requests, admin/applications/:id/requests), which are the authority.
 */

// The rules without Zod live in ./conversation-rules (the panel loads these schemas after the page
// has started; decision 0052).
export { isDocumentKind, isoDateAfter, REQUEST_DUE_DEFAULT_DAYS, REQUEST_DUE_MAX_DAYS, requestFormValues } from "./conversation-rules";

export const REQUEST_MESSAGES = {
  itemId: "This item could not be identified. Reload the page and try again.",
  kind: "Choose what you need from the list",
  itemsRequired: "Add at least one item",
  itemsTooMany: `Ask for at most ${CONVERSATION_LIMITS.requestItemsMax} items at once`,
  questionRequired: "Write the question you are asking",
  noteTooLong: `A note must be at most ${CONVERSATION_LIMITS.requestNoteMaxLength} characters`,
  dueDate: "Enter the due date as a date (yyyy-MM-dd)",
  dueDatePast: "The due date cannot be in the past",
  dueDateTooFar: `The due date must be within ${REQUEST_DUE_MAX_DAYS} days`,
  reasonRequired: "Say why the answer is rejected (the applicant sees it)",
  reasonTooLong: `A reason must be at most ${CONVERSATION_LIMITS.requestNoteMaxLength} characters`,
  replyRequired: "Write your answer before sending",
  replyTooLong: `An answer must be at most ${formatCount(CONVERSATION_LIMITS.requestReplyMaxLength)} characters`,
  intent: "Unknown action",
} as const;

export const STAFF_REQUEST_INTENTS = ["request", "accept", "reject"] as const;
export type StaffRequestIntent = (typeof STAFF_REQUEST_INTENTS)[number];
export const APPLICANT_REQUEST_INTENTS = ["upload", "reply"] as const;
export type ApplicantRequestIntent = (typeof APPLICANT_REQUEST_INTENTS)[number];

/** What both request routes answer: the panel shows the toast; field errors go next to the fields. */
export type RequestActionData = ActionResult<{ intent: StaffRequestIntent | ApplicantRequestIntent | null; at: number }>;

/** Free text from a text area: line breaks normalized, trimmed, control characters refused. */
function text(max: number, tooLong: string, required?: string) {
  return writtenText({ max, tooLong, required });
}

const itemId = z.uuid({ error: REQUEST_MESSAGES.itemId });
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A real calendar date 'yyyy-MM-dd' from today (UTC) to REQUEST_DUE_MAX_DAYS ahead. */
export function dueDateField(now: Date = new Date()) {
  return z
    .string({ error: REQUEST_MESSAGES.dueDate })
    .trim()
    .superRefine((value, ctx) => {
      const date = new Date(`${value}T00:00:00Z`);
      if (!ISO_DATE.test(value) || Number.isNaN(date.getTime()) || isoDay(date) !== value) {
        ctx.addIssue({ code: "custom", message: REQUEST_MESSAGES.dueDate });
        return;
      }
      if (value < isoDateAfter(0, now)) ctx.addIssue({ code: "custom", message: REQUEST_MESSAGES.dueDatePast });
      else if (value > isoDateAfter(REQUEST_DUE_MAX_DAYS, now)) ctx.addIssue({ code: "custom", message: REQUEST_MESSAGES.dueDateTooFar });
    });
}

export const requestItemInputSchema = z
  .object({
    kind: z.enum(REQUEST_ITEM_KINDS, { error: REQUEST_MESSAGES.kind }),
    note: text(CONVERSATION_LIMITS.requestNoteMaxLength, REQUEST_MESSAGES.noteTooLong).transform((v) => v || null),
  })
  // A document's note is optional (the kind says what is needed); a question item is its note.
  .refine((item) => item.kind !== "question" || item.note !== null, { message: REQUEST_MESSAGES.questionRequired, path: ["note"] });

/** Request Documents: the items (kind + note each, posted as parallel `kind` and `note` lists) and one due date. */
export function requestDocumentsSchema(now: Date = new Date()) {
  return z.object({
    intent: z.literal("request"),
    items: z.array(requestItemInputSchema).min(1, REQUEST_MESSAGES.itemsRequired).max(CONVERSATION_LIMITS.requestItemsMax, REQUEST_MESSAGES.itemsTooMany),
    dueDate: dueDateField(now),
  });
}
export type RequestDocumentsInput = z.output<ReturnType<typeof requestDocumentsSchema>>;

export const acceptItemSchema = z.object({ intent: z.literal("accept"), itemId });
export const rejectItemSchema = z.object({
  intent: z.literal("reject"),
  itemId,
  reason: text(CONVERSATION_LIMITS.requestNoteMaxLength, REQUEST_MESSAGES.reasonTooLong, REQUEST_MESSAGES.reasonRequired),
});
export const replyItemSchema = z.object({
  intent: z.literal("reply"),
  itemId,
  reply: text(CONVERSATION_LIMITS.requestReplyMaxLength, REQUEST_MESSAGES.replyTooLong, REQUEST_MESSAGES.replyRequired),
});
/** The text part of an upload (the file is checked by content, app/domain/upload-rules.ts). */
export const uploadItemSchema = z.object({ intent: z.literal("upload"), itemId });

