import type { ActionResult, Toast } from "~/domain/action-result";
import { CONVERSATION_LIMITS } from "~/domain/conversation-enums";
import { formatCount } from "~/domain/formats";
import { writtenText } from "./text-fields";
import { z } from "./zod";

/**
 * The Messages panel: one schema per intent, shared by the panel (live counter and the
 * error under the field) and the two action routes (the authority). A message is plain text: line
 * breaks and tabs are kept, other control characters are refused, nothing is stripped or rewritten
 * except CRLF → LF and the surrounding whitespace, so what is stored is what the writer typed.
 */

export { normalizeMessageBody } from "./conversation-rules";

export const MESSAGE_INTENTS = ["send", "read"] as const;
export type MessageIntent = (typeof MESSAGE_INTENTS)[number];

export const MESSAGE_MESSAGES = {
  required: "Write a message before sending",
  tooLong: `A message must be at most ${formatCount(CONVERSATION_LIMITS.messageMaxLength)} characters`,
  intent: "Unknown action.",
} as const;

export const sendMessageSchema = z.object({
  intent: z.literal("send"),
  // CRLF → LF and trimmed, as normalizeMessageBody does for the panel's counter.
  body: writtenText({ max: CONVERSATION_LIMITS.messageMaxLength, tooLong: MESSAGE_MESSAGES.tooLong, required: MESSAGE_MESSAGES.required }),
});
export type SendMessageInput = z.output<typeof sendMessageSchema>;

export const readMessagesSchema = z.object({ intent: z.literal("read") });

/** What the two message routes answer (JSON): the toast the panel shows, the field's message. */
export type MessageActionData = ActionResult<{ intent: MessageIntent | null; toast?: Toast; at: number }>;

export const MESSAGE_TOASTS = {
  sent: { type: "success", title: "Message sent" },
} as const satisfies Record<string, Toast>;
