import { requireStaff } from "~/server/accounts/session.server";
import { messageAction } from "~/server/conversation/message-actions.server";
import { jsonAnswer, noStoreJson } from "~/server/platform/http/action-answer.server";
import { assertSameOrigin } from "~/server/platform/http/origin.server";
import { requestInfo } from "~/server/platform/http/request-info.server";
import type { Route } from "./+types/application-messages";

/**
 * POST /admin/applications/:id/messages: staff with a verified second factor write to the applicant
 * (intent send, audited) or mark the conversation read for themselves (intent read).
 */

export function loader() {
  return noStoreJson({ ok: false, message: "Method Not Allowed" }, 405, { Allow: "POST" });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const admin = await requireStaff(request, "applications.work");
  const actor = { id: admin.id, name: admin.name, email: admin.email };
  return jsonAnswer(await messageAction(request, params.id, { id: admin.id, side: "staff", actor }, requestInfo(request, context)));
}
