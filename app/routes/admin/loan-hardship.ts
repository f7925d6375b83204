import { jsonAnswer } from "~/server/platform/http/action-answer.server";
import { callerOf } from "~/server/platform/http/request-info.server";
import { staffHardshipAction } from "~/server/loans/index.server";
import type { Route } from "./+types/loan-hardship";
import { staffWith } from "~/server/accounts/index.server";
import { defineAction, postOnly } from "~/server/platform/http/define-route.server";

/**
 * POST /admin/loans/:id/hardship: staff who work collections (verified second factor) offer a
 * hardship plan (offer-plan: Deferment, Payment Plan, Change Due Date), withdraw it (withdraw-plan) or
 * close a help request without a plan (close-request) (app/server/loans/hardship-actions.server.ts).
 * Action only.
 */

export const loader = postOnly;

export const action = defineAction({
  guard: staffWith("collections.work"),
  handle: async ({ request, params, context }: Route.ActionArgs, admin) => jsonAnswer(await staffHardshipAction(request, params.id, callerOf(admin, request, context))),
});
