import { jsonAnswer } from "~/server/platform/http/action-answer.server";
import { callerOf } from "~/server/platform/http/request-info.server";
import { OFFER_DECLINE_FORM, offerDeclineAction } from "~/server/offers/index.server";
import type { Route } from "./+types/application-offer-decline";
import { signedIn } from "~/server/accounts/index.server";
import { defineAction, postOnly } from "~/server/platform/http/define-route.server";

/**
 * POST /dashboard/applications/:id/offer-decline (intent=decline): the signed-in applicant declines
 * the open offer on their own application. Another's application, a malformed id and staff get 404;
 * an offer no longer open, 409. Nothing to GET (405).
 */

export const loader = postOnly;

export const action = defineAction({
  guard: signedIn,
  form: { ...OFFER_DECLINE_FORM, send: jsonAnswer },
  handle: async ({ request, params, context }: Route.ActionArgs, user) => jsonAnswer(await offerDeclineAction(params.id, callerOf(user, request, context))),
});
