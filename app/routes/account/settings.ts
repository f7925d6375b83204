import { accountSettingsAction } from "~/server/accounts/index.server";
import { jsonAnswer } from "~/server/platform/http/action-answer.server";
import { callerOf } from "~/server/platform/http/request-info.server";
import type { Route } from "./+types/settings";
import { signedIn } from "~/server/accounts/index.server";
import { defineAction, postOnly } from "~/server/platform/http/define-route.server";

/**
 * POST /account/settings: the account page's forms, by intent (ACCOUNT_SETTINGS_INTENTS):
 * update-profile, request-email-change, confirm-email-change, change-password, revoke-other-sessions,
 * update-notifications. JSON answers; staff get 403 on the applicant-only ones. Nothing to GET (405).
 */

export const loader = postOnly;

export const action = defineAction({
  guard: signedIn,
  handle: async ({ request, context }: Route.ActionArgs, user) => jsonAnswer(await accountSettingsAction(request, callerOf(user, request, context))),
});
