import type { ActionResult, Toast } from "~/domain/action-result";
import { z } from "./zod";

/** Forms that post an intent: the messages and the intent field they share, and the confirm dialog's whole form. */

const UNKNOWN_ACTION = "Unknown action.";

/**
 * An action's messages with the two every intent form shares: another intent is "Unknown action.", an
 * unexpected failure "Something went wrong. Please try again."
 */
export function intentMessages<const Messages extends object>(messages: Messages) {
  return { intent: UNKNOWN_ACTION, ...messages, failed: "Something went wrong. Please try again." } as const;
}

/** The intent field of a form that answers one intent: anything else is refused with "Unknown action.". */
export function intentLiteral<const Intent extends string>(intent: Intent) {
  return z.literal(intent, { error: UNKNOWN_ACTION });
}

export type ConfirmIntentTexts<Messages extends Record<string, string>> = {
  /** The toast title when it is refused. */
  failedTitle: string;
  /** The refusals the service gives (404, 409), in the applicant's words. */
  messages: Messages;
  /** The toast when it is done. */
  done: Toast;
};

/** What the route answers (JSON): the toast the page shows; `at` tells two equal answers apart. */
export type ConfirmIntentActionData<Intent extends string> = ActionResult<{ intent: Intent | null; toast: Toast; at: number }>;

/**
 * A confirm dialog that posts its intent and nothing else (Withdraw Application, Decline Offer): the
 * subject is the route's and must be the signed-in applicant's own, so nothing else is taken from the
 * browser. One definition gives the intent list, the messages (intentMessages), the schema, the success
 * toast and the refusal's title.
 */
export function confirmIntentForm<const Intent extends string, const Messages extends Record<string, string>>(intent: Intent, texts: ConfirmIntentTexts<Messages>) {
  return {
    intent,
    intents: [intent] as const,
    messages: intentMessages(texts.messages),
    schema: z.object({ intent: intentLiteral(intent) }),
    done: texts.done,
    failedTitle: texts.failedTitle,
  };
}

export type ConfirmIntentForm<Intent extends string> = ReturnType<typeof confirmIntentForm<Intent, Record<string, string>>>;
