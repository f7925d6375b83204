import { errorToast } from "~/domain/action-result";
import {
  APPLICATION_WITHDRAW_FAILED,
  APPLICATION_WITHDRAW_MESSAGES,
  APPLICATION_WITHDRAW_TOASTS,
  applicationWithdrawSchema,
  type ApplicationWithdrawActionData,
} from "~/domain/validation/application-withdraw";
import type { RequestInfo } from "~/server/platform/audit/audit.server";
import { readActionForm, type ServiceAnswer } from "~/server/platform/http/action-answer.server";
import { logFailure } from "~/server/platform/log/describe-error.server";
import { withdrawApplication, WithdrawalRefused, type Withdrawer } from "./withdraw-application.server";

/**
 * The Withdraw Application action behind POST /dashboard/applications/:id/withdraw (the route has
 * checked the origin and required a signed-in user). The body is one field: anything over 1 KiB is
 * refused (413) before it is parsed, bad input is a 400, a refusal its 404 or 409, never a 500.
 */

/** intent=withdraw is 15 bytes; a form with more than a little room to spare is not ours. */
export const APPLICATION_WITHDRAW_MAX_BYTES = 1024;

export type ApplicationWithdrawAnswer = ServiceAnswer<ApplicationWithdrawActionData>;

function refusal(status: number, message: string, intent: "withdraw" | null = "withdraw"): ApplicationWithdrawAnswer {
  return { status, body: { ok: false, intent, toast: errorToast(APPLICATION_WITHDRAW_FAILED, message), at: Date.now() } };
}

export async function applicationWithdrawAction(request: Request, applicationId: string, user: Withdrawer, info: RequestInfo = {}): Promise<ApplicationWithdrawAnswer> {
  const read = await readActionForm(request, (message): ApplicationWithdrawActionData => refusal(400, message, null).body, {
    limitBytes: APPLICATION_WITHDRAW_MAX_BYTES,
    unreadableAsEmpty: true,
  });
  if (!read.ok) return read.answer;
  const parsed = applicationWithdrawSchema.safeParse({ intent: read.form.get("intent") ?? undefined });
  if (!parsed.success) return refusal(400, APPLICATION_WITHDRAW_MESSAGES.intent, null);
  try {
    await withdrawApplication(applicationId, user, info);
    return { status: 200, body: { ok: true, intent: "withdraw", toast: APPLICATION_WITHDRAW_TOASTS.withdrawn, at: Date.now() } };
  } catch (error) {
    if (error instanceof WithdrawalRefused) return refusal(error.status, error.message);
    logFailure("applications", "application withdrawal failed", error);
    return refusal(503, APPLICATION_WITHDRAW_MESSAGES.failed);
  }
}
