import { REQUEST_DOCUMENT_KINDS, type RequestItemKind } from "~/domain/conversation-enums";
import { isoDay } from "../dates";

/**
 * The parts of Messages' and What We Need's form rules that need no Zod: what the panels use while
 * they render. The schemas themselves (./messages, ./requests, which re-export these) are loaded by the
 * panels after the page has started (app/components/application/conversation-schemas.ts): building Zod
 * and them was a third of the application page's start-up script on a phone (decision 0052).
 */

/** A due date is at most this many days ahead: a request is a step of a review, not an open-ended ask. */
export const REQUEST_DUE_MAX_DAYS = 90;
/** The due date the Request Documents dialog proposes. */
export const REQUEST_DUE_DEFAULT_DAYS = 14;

export function isDocumentKind(kind: RequestItemKind): kind is (typeof REQUEST_DOCUMENT_KINDS)[number] {
  return kind !== "question";
}

/** 'yyyy-MM-dd' of a date `days` after `from`, in UTC (due dates are calendar dates, see todayUtc). */
export function isoDateAfter(days: number, from: Date = new Date()): string {
  return isoDay(new Date(from.getTime() + days * 86_400_000));
}

/** A posted form as the schemas' input: `kind` and `note` are parallel lists (one per item). */
export function requestFormValues(form: FormData): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const key of ["intent", "itemId", "dueDate", "reason", "reply"]) {
    const value = form.get(key);
    if (typeof value === "string") values[key] = value;
  }
  const kinds = form.getAll("kind");
  const notes = form.getAll("note");
  if (values.intent === "request") {
    values.items = kinds.map((kind, i) => ({ kind: typeof kind === "string" ? kind : "", note: typeof notes[i] === "string" ? notes[i] : "" }));
  }
  return values;
}

/** CRLF and lone CR as LF, then trimmed: the length the limit counts is the length stored. */
export function normalizeMessageBody(value: string): string {
  return value.replace(/\r\n?/g, "\n").trim();
}
