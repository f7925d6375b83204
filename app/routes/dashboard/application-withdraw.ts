import { APPLICATION_WITHDRAW_FORM, applicationWithdrawAction } from "~/server/applications/index.server";
import { jsonAnswer } from "~/server/platform/http/action-answer.server";
import { callerOf } from "~/server/platform/http/request-info.server";
import type { Route } from "./+types/application-withdraw";
import { signedIn } from "~/server/accounts/index.server";
import { defineAction, postOnly } from "~/server/platform/http/define-route.server";

/**
 * POST /dashboard/applications/:id/withdraw (intent=withdraw): the signed-in applicant withdraws their
 * own application while it is pending or under review. Another's application, a malformed id and
 * staff get 404; an application already decided or withdrawn, 409. Nothing to GET (405).
 */

export const loader = postOnly;

export const action = defineAction({
  guard: signedIn,
  form: { ...APPLICATION_WITHDRAW_FORM, send: jsonAnswer },
  handle: async ({ request, params, context }: Route.ActionArgs, user) => jsonAnswer(await applicationWithdrawAction(params.id, callerOf(user, request, context))),
});
