import { requireStaff } from "~/server/accounts/session.server";
import { jsonAnswer, noStoreJson } from "~/server/platform/http/action-answer.server";
import { assertSameOrigin } from "~/server/platform/http/origin.server";
import { requestInfo } from "~/server/platform/http/request-info.server";
import { offerWithdrawAction } from "~/server/offers/withdraw-offer.server";
import type { Route } from "./+types/application-offer";

/**
 * POST /admin/applications/:id/offer: staff with a verified second factor withdraw the
 * application's open offer (intent withdraw, with a reason the applicant reads; audited as
 * offer.withdraw). Action only.
 */

export function loader() {
  return noStoreJson({ ok: false, message: "Method Not Allowed" }, 405, { Allow: "POST" });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const admin = await requireStaff(request, "applications.work");
  return jsonAnswer(await offerWithdrawAction(request, params.id, admin, requestInfo(request, context)));
}
