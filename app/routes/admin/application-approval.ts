import { requireStaff } from "~/server/accounts/session.server";
import { jsonAnswer, noStoreJson } from "~/server/platform/http/action-answer.server";
import { assertSameOrigin } from "~/server/platform/http/origin.server";
import { requestInfo } from "~/server/platform/http/request-info.server";
import { approvalAction } from "~/server/applications/approval-proposals.server";
import type { Route } from "./+types/application-approval";

/**
 * POST /admin/applications/:id/approval (four-eyes approval): intent confirm (Confirm
 * Approval, never by the proposer) or send-back (Send Back, with a comment). Action only.
 */

export function loader() {
  return noStoreJson({ ok: false, message: "Method Not Allowed" }, 405, { Allow: "POST" });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const staff = await requireStaff(request, "applications.work");
  return jsonAnswer(await approvalAction(request, params.id, staff, requestInfo(request, context)));
}
