import { jsonAnswer } from "~/server/platform/http/action-answer.server";
import { callerOf } from "~/server/platform/http/request-info.server";
import { approvalAction } from "~/server/applications/index.server";
import type { Route } from "./+types/application-approval";
import { staffWith } from "~/server/accounts/index.server";
import { defineAction, postOnly } from "~/server/platform/http/define-route.server";

/**
 * POST /admin/applications/:id/approval (four-eyes approval): intent confirm (Confirm
 * Approval, never by the proposer) or send-back (Send Back, with a comment). Action only.
 */

export const loader = postOnly;

export const action = defineAction({
  guard: staffWith("applications.work"),
  handle: async ({ request, params, context }: Route.ActionArgs, staff) => jsonAnswer(await approvalAction(request, params.id, callerOf(staff, request, context))),
});
