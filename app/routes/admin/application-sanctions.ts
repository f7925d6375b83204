import { sanctionsDecisionAction } from "~/server/applications/index.server";
import { jsonAnswer } from "~/server/platform/http/action-answer.server";
import { callerOf } from "~/server/platform/http/request-info.server";
import type { Route } from "./+types/application-sanctions";
import { staffWith } from "~/server/accounts/index.server";
import { defineAction, postOnly } from "~/server/platform/http/define-route.server";

/**
 * POST /admin/applications/:id/sanctions: staff who work applications decide a potential sanctions
 * match: intent clear-match or confirm-match, with matchId and a reason of 10 to 1000 characters
 * (audited as sanctions.clear / sanctions.confirm). Auditors read the section only. Action only.
 */

export const loader = postOnly;

export const action = defineAction({
  guard: staffWith("applications.work"),
  handle: async ({ request, params, context }: Route.ActionArgs, staff) => jsonAnswer(await sanctionsDecisionAction(request, params.id, callerOf(staff, request, context))),
});
