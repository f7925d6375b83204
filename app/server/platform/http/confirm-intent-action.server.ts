import { errorToast } from "~/domain/action-result";
import type { ConfirmIntentActionData, ConfirmIntentForm } from "~/domain/validation/confirm-intent";
import type { Caller } from "~/server/platform/audit/audit.server";
import { logFailure } from "~/server/platform/log/describe-error.server";
import type { ActionForm, ServiceAnswer } from "./action-answer.server";
import { AppError, actionRefusal } from "./app-error.server";

/**
 * The action behind a confirm dialog that posts its intent alone (Withdraw Application, Decline Offer).
 * The route has checked the origin, required a signed-in user and read the form with `form`: anything
 * over 1 KiB is refused (413) before it is parsed, an unreadable body reads as empty, bad input
 * (another intent) is a 400 on no field. `act` runs the service on the route's subject: done is a 200
 * with the form's toast, the service's refusal (AppError) its own status (404, 409), anything else a
 * 503 with "Something went wrong", logged; never a 500.
 */

export type ConfirmIntentAnswer<Intent extends string> = ServiceAnswer<ConfirmIntentActionData<Intent>>;

/** An intent alone is a few bytes (intent=withdraw is 15): a form with more than a little room to spare is not ours. */
export const CONFIRM_INTENT_MAX_BYTES = 1024;

/** The service behind the dialog, on the route's subject: it throws AppError to refuse. */
export type ConfirmIntentService<User> = (subjectId: string, caller: Caller<User>) => Promise<unknown>;

/** `log`: where an unexpected failure is logged, the module and what failed. */
export function defineConfirmIntentAction<Intent extends string, User>(
  confirm: ConfirmIntentForm<Intent>,
  run: ConfirmIntentService<User>,
  log: [module: string, what: string],
) {
  type Answer = ConfirmIntentAnswer<Intent>;
  const refusal = (status: number, message: string, intent: Intent | null = confirm.intent): Answer => ({
    status,
    body: { ok: false, intent, toast: errorToast(confirm.failedTitle, message), at: Date.now() },
  });
  const form: ActionForm<{ intent: Intent }, ConfirmIntentActionData<Intent>> = {
    schema: confirm.schema,
    limitBytes: CONFIRM_INTENT_MAX_BYTES,
    unreadableAsEmpty: true,
    refuse: (message) => refusal(400, message, null).body,
  };
  async function act(subjectId: string, caller: Caller<User>): Promise<Answer> {
    try {
      await run(subjectId, caller);
      return { status: 200, body: { ok: true, intent: confirm.intent, toast: confirm.done, at: Date.now() } };
    } catch (error) {
      if (error instanceof AppError) return actionRefusal(error, { title: confirm.failedTitle, stamped: true }, { intent: confirm.intent });
      logFailure(log[0], log[1], error);
      return refusal(503, confirm.messages.failed);
    }
  }
  return { form, act };
}
