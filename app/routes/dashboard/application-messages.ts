import { requireUser } from "~/server/accounts/session.server";
import { messageAction } from "~/server/conversation/message-actions.server";
import { jsonAnswer, noStoreJson } from "~/server/platform/http/action-answer.server";
import { assertSameOrigin } from "~/server/platform/http/origin.server";
import type { Route } from "./+types/application-messages";

/**
 * POST /dashboard/applications/:id/messages: the applicant writes to the lender about their own
 * application (intent send) or marks the conversation read (intent read). Another's application is 404.
 */

export function loader() {
  return noStoreJson({ ok: false, message: "Method Not Allowed" }, 405, { Allow: "POST" });
}

export async function action({ request, params }: Route.ActionArgs) {
  assertSameOrigin(request);
  const user = await requireUser(request);
  return jsonAnswer(await messageAction(request, params.id, { id: user.id, side: "applicant" }));
}
