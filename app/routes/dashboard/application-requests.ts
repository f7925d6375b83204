import { requireUser } from "~/server/accounts/session.server";
import { applicantRequestAction } from "~/server/conversation/request-actions.server";
import { jsonAnswer, noStoreJson } from "~/server/platform/http/action-answer.server";
import { assertSameOrigin } from "~/server/platform/http/origin.server";
import type { Route } from "./+types/application-requests";

/**
 * POST /dashboard/applications/:id/requests: the applicant answers the lender's requests on their own
 * application (intent upload, multipart with one file; intent reply). Another's application or item is 404.
 */

export function loader() {
  return noStoreJson({ ok: false, message: "Method Not Allowed" }, 405, { Allow: "POST" });
}

export async function action({ request, params }: Route.ActionArgs) {
  assertSameOrigin(request);
  const user = await requireUser(request);
  return jsonAnswer(await applicantRequestAction(request, params.id, user));
}
