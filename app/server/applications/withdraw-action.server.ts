import { APPLICATION_WITHDRAW } from "~/domain/validation/application-withdraw";
import { CONFIRM_INTENT_MAX_BYTES, defineConfirmIntentAction } from "~/server/platform/http/confirm-intent-action.server";
import { withdrawApplication, type Withdrawer } from "./withdraw-application.server";

/**
 * The Withdraw Application action behind POST /dashboard/applications/:id/withdraw: the form is
 * intent=withdraw alone (anything else is 400 "Unknown action.", on no field), anything over 1 KiB is
 * refused (413) before it is parsed, a refusal is its 404 or 409, never a 500.
 */

export const APPLICATION_WITHDRAW_MAX_BYTES = CONFIRM_INTENT_MAX_BYTES;

/** APPLICATION_WITHDRAW_FORM is what the route reads; applicationWithdrawAction withdraws once it has. */
export const { form: APPLICATION_WITHDRAW_FORM, act: applicationWithdrawAction } = defineConfirmIntentAction<"withdraw", Withdrawer>(
  APPLICATION_WITHDRAW,
  withdrawApplication,
  ["applications", "application withdrawal failed"],
);
