import { accountSecurityAction } from "~/server/accounts/security.server";
import { requireUser } from "~/server/accounts/session.server";
import { jsonAnswer, noStoreJson } from "~/server/platform/http/action-answer.server";
import { assertSameOrigin } from "~/server/platform/http/origin.server";
import { requestInfo } from "~/server/platform/http/request-info.server";
import type { Route } from "./+types/security";

/**
 * POST /account/security: Two-Factor Authentication (totp-start, totp-enable, totp-disable,
 * backup-codes; applicants) and Passkeys (passkey-options, passkey-add, passkey-remove; applicants,
 * and staff past their second factor). JSON answers. Nothing to GET (405).
 */

export function loader() {
  return noStoreJson({ ok: false, message: "Method Not Allowed" }, 405, { Allow: "POST" });
}

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const user = await requireUser(request);
  return jsonAnswer(await accountSecurityAction(request, user, requestInfo(request, context)));
}
