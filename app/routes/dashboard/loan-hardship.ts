import { jsonAnswer } from "~/server/platform/http/action-answer.server";
import { callerOf } from "~/server/platform/http/request-info.server";
import { borrowerHardshipAction } from "~/server/loans/index.server";
import type { Route } from "./+types/loan-hardship";
import { signedIn } from "~/server/accounts/index.server";
import { defineAction, postOnly } from "~/server/platform/http/define-route.server";

/**
 * POST /dashboard/loans/:id/hardship: the borrower's hardship intents on their own loan,
 * request-help (Request Help with Payments), sign-plan and decline-plan (the plan offered)
 * (app/server/loans/hardship-actions.server.ts). Another person's loan, a malformed id and staff get
 * 404. Nothing to GET (405).
 */

export const loader = postOnly;

export const action = defineAction({
  guard: signedIn,
  handle: async ({ request, params, context }: Route.ActionArgs, user) => jsonAnswer(await borrowerHardshipAction(request, params.id, callerOf(user, request, context))),
});
