import { DRAFT_MESSAGES } from "~/domain/validation/application-draft";
import { draftAction } from "~/server/applications/index.server";
import { jsonAnswer, noStoreJson } from "~/server/platform/http/action-answer.server";
import type { Route } from "./+types/drafts";
import { defineAction, postOnly } from "~/server/platform/http/define-route.server";
import { maybeSignedIn } from "~/server/accounts/index.server";

/**
 * POST /api/drafts: Save and Finish Later, intent=save or intent=discard (multipart, JSON
 * answers; see draft-action.server.ts). A visitor gets 401 (the wizard offers to sign in), staff 403.
 */
export const loader = postOnly;

export const action = defineAction({
  guard: maybeSignedIn,
  handle: async ({ request }: Route.ActionArgs, user) => {
    if (!user) return noStoreJson({ ok: false, message: DRAFT_MESSAGES.signIn }, 401);
    return jsonAnswer(await draftAction(request, user));
  },
});
