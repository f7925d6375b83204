import { accountSecurityAction } from "~/server/accounts/index.server";
import { jsonAnswer } from "~/server/platform/http/action-answer.server";
import { callerOf } from "~/server/platform/http/request-info.server";
import type { Route } from "./+types/security";
import { signedIn } from "~/server/accounts/index.server";
import { defineAction, postOnly } from "~/server/platform/http/define-route.server";

/**
 * POST /account/security: Two-Factor Authentication (totp-start, totp-enable, totp-disable,
 * backup-codes; applicants) and Passkeys (passkey-options, passkey-add, passkey-remove; applicants,
 * and staff past their second factor). JSON answers. Nothing to GET (405).
 */

export const loader = postOnly;

export const action = defineAction({
  guard: signedIn,
  handle: async ({ request, context }: Route.ActionArgs, user) => jsonAnswer(await accountSecurityAction(request, callerOf(user, request, context))),
});
