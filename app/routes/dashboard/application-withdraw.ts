import { applicationWithdrawAction } from "~/server/applications/withdraw-action.server";
import { requireUser } from "~/server/accounts/session.server";
import { jsonAnswer, noStoreJson } from "~/server/platform/http/action-answer.server";
import { assertSameOrigin } from "~/server/platform/http/origin.server";
import { requestInfo } from "~/server/platform/http/request-info.server";
import type { Route } from "./+types/application-withdraw";

/**
 * POST /dashboard/applications/:id/withdraw (intent=withdraw): the signed-in applicant withdraws their
 * own application while it is pending or under review. Another's application, a malformed id and
 * staff get 404; an application already decided or withdrawn, 409. Nothing to GET (405).
 */

export function loader() {
  return noStoreJson({ ok: false, message: "Method Not Allowed" }, 405, { Allow: "POST" });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const user = await requireUser(request);
  return jsonAnswer(await applicationWithdrawAction(request, params.id, user, requestInfo(request, context)));
}
