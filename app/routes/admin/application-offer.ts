import { jsonAnswer } from "~/server/platform/http/action-answer.server";
import { callerOf } from "~/server/platform/http/request-info.server";
import { offerWithdrawAction } from "~/server/offers/index.server";
import type { Route } from "./+types/application-offer";
import { staffWith } from "~/server/accounts/index.server";
import { defineAction, postOnly } from "~/server/platform/http/define-route.server";

/**
 * POST /admin/applications/:id/offer: staff with a verified second factor withdraw the
 * application's open offer (intent withdraw, with a reason the applicant reads; audited as
 * offer.withdraw). Action only.
 */

export const loader = postOnly;

export const action = defineAction({
  guard: staffWith("applications.work"),
  handle: async ({ request, params, context }: Route.ActionArgs, admin) => jsonAnswer(await offerWithdrawAction(request, params.id, callerOf(admin, request, context))),
});
