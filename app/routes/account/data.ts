import { requireUser } from "~/server/accounts/session.server";
import { accountDataAction } from "~/server/accounts/data.server";
import { jsonAnswer, noStoreJson } from "~/server/platform/http/action-answer.server";
import { assertSameOrigin } from "~/server/platform/http/origin.server";
import { requestInfo } from "~/server/platform/http/request-info.server";
import type { Route } from "./+types/data";

/**
 * POST /account/data: intent=request-export (Download My Data, 202; 409 while one is being
 * prepared) or intent=close-account (Close My Account: password and typed confirmation; 409 while a
 * loan is active or an offer is open). Staff get 403. Nothing to GET (405).
 */

export function loader() {
  return noStoreJson({ ok: false, message: "Method Not Allowed" }, 405, { Allow: "POST" });
}

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const user = await requireUser(request);
  return jsonAnswer(await accountDataAction(request, user, requestInfo(request, context)));
}
