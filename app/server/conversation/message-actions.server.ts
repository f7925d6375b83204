import { errorToast, type Toast } from "~/domain/action-result";
import { issuesToFieldErrors } from "~/domain/validation/field-errors";
import { MESSAGE_MESSAGES, MESSAGE_TOASTS, readMessagesSchema, sendMessageSchema, type MessageActionData, type MessageIntent } from "~/domain/validation/messages";
import type { AuditActor, Caller } from "~/server/platform/audit/audit.server";
import { readActionForm, type ServiceAnswer } from "~/server/platform/http/action-answer.server";
import { logFailure } from "~/server/platform/log/describe-error.server";
import { THROTTLES, throttleRefusal } from "~/server/platform/security/throttle.server";
import { markConversationRead, MESSAGE_REFUSALS, sendMessage } from "./messages.server";
import { AppError, actionRefusal } from "~/server/platform/http/app-error.server";
import { UUID_PATTERN } from "~/domain/ids";

/**
 * The Messages actions behind the two resource routes: POST /dashboard/applications/:id/messages (the
 * signed-in applicant, their own application only) and POST /admin/applications/:id/messages (the
 * route has already required a verified admin), intents send | read. Every answer is a
 * MessageActionData with a toast; bad input is a 400 naming the field, never a 500.
 */

export type MessageAnswer = ServiceAnswer<MessageActionData>;

/** 5,000 characters of 4-byte UTF-8, form-encoded (×3), with room for the intent. */
export const MAX_MESSAGE_FORM_BYTES = 64 * 1024;

const SEND_FAILED = "Failed to send message";

function answer(status: number, intent: MessageIntent | null, toast: Toast | undefined, extra: Partial<MessageActionData> = {}): MessageAnswer {
  return { status, body: { ok: status < 300, intent, ...(toast ? { toast } : {}), at: Date.now(), ...extra } };
}

export type MessageActor = { id: string; side: "applicant" } | { id: string; side: "staff"; actor: AuditActor };

export async function messageAction(request: Request, applicationId: string, caller: Caller<MessageActor>): Promise<MessageAnswer> {
  const writer = caller.actor;
  const read = await readActionForm(request, (message): MessageActionData => ({ ok: false, intent: null, toast: errorToast(SEND_FAILED, message), at: Date.now() }), {
    limitBytes: MAX_MESSAGE_FORM_BYTES,
    unreadableAsEmpty: true,
  });
  if (!read.ok) return read.answer;
  const intentValue = read.form.get("intent");
  const intent: MessageIntent | null = intentValue === "send" || intentValue === "read" ? intentValue : null;
  if (!intent) return answer(400, null, errorToast(SEND_FAILED, MESSAGE_MESSAGES.intent));
  const title = intent === "send" ? SEND_FAILED : "Failed to mark messages read";
  // A malformed id is no one's application: the same 404 as another's, before any query.
  if (!UUID_PATTERN.test(applicationId)) return answer(404, intent, errorToast(title, MESSAGE_REFUSALS.applicationNotFound));
  try {
    if (intent === "read") {
      const parsed = readMessagesSchema.safeParse({ intent });
      if (!parsed.success) return answer(400, intent, errorToast(title, MESSAGE_MESSAGES.intent));
      await markConversationRead(applicationId, writer);
      // Quiet: the panel posts this on its own; nothing for the reader to be told.
      return answer(200, intent, undefined);
    }
    const body = read.form.get("body");
    const parsed = sendMessageSchema.safeParse({ intent, body: typeof body === "string" ? body : undefined });
    if (!parsed.success) {
      return answer(400, intent, errorToast(title, parsed.error.issues[0]?.message ?? MESSAGE_MESSAGES.required), {
        fieldErrors: issuesToFieldErrors(parsed.error),
      });
    }
    const throttled = await throttleRefusal([[`message-send:user:${writer.id}`, THROTTLES.messageSendPerUser]], (message) => message);
    if (throttled) return { status: 429, headers: throttled.headers, body: { ok: false, intent, toast: errorToast(title, throttled.body), at: Date.now() } };
    await sendMessage(applicationId, parsed.data.body, caller);
    return answer(200, intent, MESSAGE_TOASTS.sent);
  } catch (error) {
    if (error instanceof AppError) return actionRefusal(error, { title, stamped: true }, { intent });
    logFailure("messages", `message ${intent} failed`, error);
    return answer(503, intent, errorToast(title, "Something went wrong. Please try again."));
  }
}
