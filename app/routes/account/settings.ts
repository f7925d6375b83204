import { requireUser } from "~/server/accounts/session.server";
import { accountSettingsAction } from "~/server/accounts/settings.server";
import { jsonAnswer, noStoreJson } from "~/server/platform/http/action-answer.server";
import { assertSameOrigin } from "~/server/platform/http/origin.server";
import { requestInfo } from "~/server/platform/http/request-info.server";
import type { Route } from "./+types/settings";

/**
 * POST /account/settings: the account page's forms, by intent (ACCOUNT_SETTINGS_INTENTS):
 * update-profile, request-email-change, confirm-email-change, change-password, revoke-other-sessions,
 * update-notifications. JSON answers; staff get 403 on the applicant-only ones. Nothing to GET (405).
 */

export function loader() {
  return noStoreJson({ ok: false, message: "Method Not Allowed" }, 405, { Allow: "POST" });
}

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const user = await requireUser(request);
  return jsonAnswer(await accountSettingsAction(request, user, requestInfo(request, context)));
}
