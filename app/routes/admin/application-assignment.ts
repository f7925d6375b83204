import { requireStaff } from "~/server/accounts/session.server";
import { assignmentAction } from "~/server/applications/assignment.server";
import { jsonAnswer, noStoreJson } from "~/server/platform/http/action-answer.server";
import { assertSameOrigin } from "~/server/platform/http/origin.server";
import { requestInfo } from "~/server/platform/http/request-info.server";
import type { Route } from "./+types/application-assignment";

/**
 * POST /admin/applications/:id/assignment: intent assign-me (Assign to Me) or assign
 * (Reassign, assigneeId of an active admin or loan officer, "" for unassigned). Action only.
 */

export function loader() {
  return noStoreJson({ ok: false, message: "Method Not Allowed" }, 405, { Allow: "POST" });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const staff = await requireStaff(request, "applications.work");
  return jsonAnswer(await assignmentAction(request, params.id, staff, requestInfo(request, context)));
}
