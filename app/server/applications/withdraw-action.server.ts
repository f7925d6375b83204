import { errorToast } from "~/domain/action-result";
import {
  APPLICATION_WITHDRAW_FAILED,
  APPLICATION_WITHDRAW_MESSAGES,
  APPLICATION_WITHDRAW_TOASTS,
  applicationWithdrawSchema,
  type ApplicationWithdrawActionData,
  type ApplicationWithdrawInput,
} from "~/domain/validation/application-withdraw";
import type { RequestInfo } from "~/server/platform/audit/audit.server";
import type { ActionForm, ServiceAnswer } from "~/server/platform/http/action-answer.server";
import { logFailure } from "~/server/platform/log/describe-error.server";
import { withdrawApplication, type Withdrawer } from "./withdraw-application.server";
import { AppError, actionRefusal } from "~/server/platform/http/app-error.server";

/**
 * The Withdraw Application action behind POST /dashboard/applications/:id/withdraw (the route has
 * checked the origin, required a signed-in user and read its form). The body is one field: anything
 * over 1 KiB is refused (413) before it is parsed, bad input is a 400, a refusal its 404 or 409, never a 500.
 */

/** intent=withdraw is 15 bytes; a form with more than a little room to spare is not ours. */
export const APPLICATION_WITHDRAW_MAX_BYTES = 1024;

export type ApplicationWithdrawAnswer = ServiceAnswer<ApplicationWithdrawActionData>;

function refusal(status: number, message: string, intent: "withdraw" | null = "withdraw"): ApplicationWithdrawAnswer {
  return { status, body: { ok: false, intent, toast: errorToast(APPLICATION_WITHDRAW_FAILED, message), at: Date.now() } };
}

/** The form: intent=withdraw alone (anything else is 400 "Unknown action.", on no field). */
export const APPLICATION_WITHDRAW_FORM: ActionForm<ApplicationWithdrawInput, ApplicationWithdrawActionData> = {
  schema: applicationWithdrawSchema,
  limitBytes: APPLICATION_WITHDRAW_MAX_BYTES,
  unreadableAsEmpty: true,
  refuse: (message) => refusal(400, message, null).body,
};

/** Withdraws once the route has read the form (APPLICATION_WITHDRAW_FORM). */
export async function applicationWithdrawAction(applicationId: string, user: Withdrawer, info: RequestInfo = {}): Promise<ApplicationWithdrawAnswer> {
  try {
    await withdrawApplication(applicationId, user, info);
    return { status: 200, body: { ok: true, intent: "withdraw", toast: APPLICATION_WITHDRAW_TOASTS.withdrawn, at: Date.now() } };
  } catch (error) {
    if (error instanceof AppError) return actionRefusal(error, { title: APPLICATION_WITHDRAW_FAILED, stamped: true }, { intent: "withdraw" as const });
    logFailure("applications", "application withdrawal failed", error);
    return refusal(503, APPLICATION_WITHDRAW_MESSAGES.failed);
  }
}
