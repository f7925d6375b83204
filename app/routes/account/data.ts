import { accountDataAction } from "~/server/accounts/index.server";
import { jsonAnswer } from "~/server/platform/http/action-answer.server";
import { callerOf } from "~/server/platform/http/request-info.server";
import type { Route } from "./+types/data";
import { signedIn } from "~/server/accounts/index.server";
import { defineAction, postOnly } from "~/server/platform/http/define-route.server";

/**
 * POST /account/data: intent=request-export (Download My Data, 202; 409 while one is being
 * prepared) or intent=close-account (Close My Account: password and typed confirmation; 409 while a
 * loan is active or an offer is open). Staff get 403. Nothing to GET (405).
 */

export const loader = postOnly;

export const action = defineAction({
  guard: signedIn,
  handle: async ({ request, context }: Route.ActionArgs, user) => jsonAnswer(await accountDataAction(request, callerOf(user, request, context))),
});
