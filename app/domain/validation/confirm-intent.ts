import type { ActionResult, Toast } from "~/domain/action-result";
import { z } from "./zod";

/**
 * A confirm dialog that posts its intent and nothing else (Withdraw Application, Decline Offer): the
 * subject is the route's and must be the signed-in applicant's own, so nothing else is taken from the
 * browser. One definition gives the intent list, the messages (any other intent is "Unknown action.",
 * an unexpected failure "Something went wrong."), the schema, the success toast and the refusal's title.
 */

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

export function confirmIntentForm<const Intent extends string, const Messages extends Record<string, string>>(intent: Intent, texts: ConfirmIntentTexts<Messages>) {
  const messages = { intent: "Unknown action.", ...texts.messages, failed: "Something went wrong. Please try again." } as const;
  return {
    intent,
    intents: [intent] as const,
    messages,
    schema: z.object({ intent: z.literal(intent, { error: messages.intent }) }),
    done: texts.done,
    failedTitle: texts.failedTitle,
  };
}

export type ConfirmIntentForm<Intent extends string> = ReturnType<typeof confirmIntentForm<Intent, Record<string, string>>>;
