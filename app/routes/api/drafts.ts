import { DRAFT_MESSAGES } from "~/domain/validation/application-draft";
import { draftAction } from "~/server/applications/draft-action.server";
import { getOptionalUser } from "~/server/accounts/session.server";
import { jsonAnswer, noStoreJson } from "~/server/platform/http/action-answer.server";
import { assertSameOrigin } from "~/server/platform/http/origin.server";
import type { Route } from "./+types/drafts";

/**
 * POST /api/drafts: Save and Finish Later, intent=save or intent=discard (multipart, JSON
 * answers; see draft-action.server.ts). A visitor gets 401 (the wizard offers to sign in), staff 403.
 */
export function loader() {
  return noStoreJson({ ok: false, message: "Method Not Allowed" }, 405, { Allow: "POST" });
}

export async function action({ request }: Route.ActionArgs) {
  assertSameOrigin(request);
  const user = await getOptionalUser(request);
  if (!user) return noStoreJson({ ok: false, message: DRAFT_MESSAGES.signIn }, 401);
  return jsonAnswer(await draftAction(request, user));
}
