import { requireUser } from "~/server/accounts/session.server";
import { jsonAnswer, noStoreJson } from "~/server/platform/http/action-answer.server";
import { assertSameOrigin } from "~/server/platform/http/origin.server";
import { requestInfo } from "~/server/platform/http/request-info.server";
import { offerDeclineAction } from "~/server/offers/offer-decline-action.server";
import type { Route } from "./+types/application-offer-decline";

/**
 * POST /dashboard/applications/:id/offer-decline (intent=decline): the signed-in applicant declines
 * the open offer on their own application. Another's application, a malformed id and staff get 404;
 * an offer no longer open, 409. Nothing to GET (405).
 */

export function loader() {
  return noStoreJson({ ok: false, message: "Method Not Allowed" }, 405, { Allow: "POST" });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const user = await requireUser(request);
  return jsonAnswer(await offerDeclineAction(request, params.id, user, requestInfo(request, context)));
}
