import { assignmentAction } from "~/server/applications/index.server";
import { jsonAnswer } from "~/server/platform/http/action-answer.server";
import { callerOf } from "~/server/platform/http/request-info.server";
import type { Route } from "./+types/application-assignment";
import { staffWith } from "~/server/accounts/index.server";
import { defineAction, postOnly } from "~/server/platform/http/define-route.server";

/**
 * POST /admin/applications/:id/assignment: intent assign-me (Assign to Me) or assign
 * (Reassign, assigneeId of an active admin or loan officer, "" for unassigned). Action only.
 */

export const loader = postOnly;

export const action = defineAction({
  guard: staffWith("applications.work"),
  handle: async ({ request, params, context }: Route.ActionArgs, staff) => jsonAnswer(await assignmentAction(request, params.id, callerOf(staff, request, context))),
});
