import { requireStaff } from "~/server/accounts/session.server";
import { staffRequestAction } from "~/server/conversation/request-actions.server";
import { jsonAnswer, noStoreJson } from "~/server/platform/http/action-answer.server";
import { assertSameOrigin } from "~/server/platform/http/origin.server";
import { requestInfo } from "~/server/platform/http/request-info.server";
import type { Route } from "./+types/application-requests";

/**
 * POST /admin/applications/:id/requests: staff with a verified second factor request documents and
 * accept or reject the answers (intent request | accept | reject), each audited.
 */

export function loader() {
  return noStoreJson({ ok: false, message: "Method Not Allowed" }, 405, { Allow: "POST" });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const admin = await requireStaff(request, "applications.work");
  return jsonAnswer(await staffRequestAction(request, params.id, admin, requestInfo(request, context)));
}
