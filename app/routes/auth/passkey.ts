import { passkeyAction } from "~/server/accounts/passkey-sign-in.server";
import { getSessionUser } from "~/server/accounts/session.server";
import { jsonAnswer, noStoreJson, readActionForm } from "~/server/platform/http/action-answer.server";
import { assertSameOrigin } from "~/server/platform/http/origin.server";
import { requestInfo } from "~/server/platform/http/request-info.server";
import type { PasskeyActionData } from "~/domain/validation/account-security";
import type { Route } from "./+types/passkey";

/**
 * POST /auth/passkey: Sign In with a Passkey (sign-in-options, then sign-in: a new session
 * and its cookie) and a passkey as this session's second factor (second-factor-options, then
 * second-factor; the session may still owe it). JSON answers. Nothing to GET (405).
 */

export function loader() {
  return noStoreJson({ ok: false, message: "Method Not Allowed" }, 405, { Allow: "POST" });
}

/** A credential as JSON plus an intent and a path: a few kilobytes. */
const PASSKEY_MAX_BYTES = 24 * 1024;

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const read = await readActionForm(request, (message): PasskeyActionData => ({ ok: false, message }), { limitBytes: PASSKEY_MAX_BYTES, unreadableAsEmpty: true });
  if (!read.ok) return jsonAnswer(read.answer);
  const user = await getSessionUser(request);
  const info = requestInfo(request, context);
  return jsonAnswer(await passkeyAction(read.form, user, { ip: context.clientIp, headers: request.headers, info }));
}
