import { messageAction } from "~/server/conversation/index.server";
import { jsonAnswer } from "~/server/platform/http/action-answer.server";
import { callerOf } from "~/server/platform/http/request-info.server";
import type { Route } from "./+types/application-messages";
import { signedIn } from "~/server/accounts/index.server";
import { defineAction, postOnly } from "~/server/platform/http/define-route.server";

/**
 * POST /dashboard/applications/:id/messages: the applicant writes to the lender about their own
 * application (intent send) or marks the conversation read (intent read). Another's application is 404.
 */

export const loader = postOnly;

export const action = defineAction({
  guard: signedIn,
  handle: async ({ request, params, context }: Route.ActionArgs, user) => jsonAnswer(await messageAction(request, params.id, callerOf({ id: user.id, side: "applicant" }, request, context))),
});
