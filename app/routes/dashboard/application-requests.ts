import { applicantRequestAction } from "~/server/conversation/index.server";
import { jsonAnswer } from "~/server/platform/http/action-answer.server";
import type { Route } from "./+types/application-requests";
import { signedIn } from "~/server/accounts/index.server";
import { defineAction, postOnly } from "~/server/platform/http/define-route.server";

/**
 * POST /dashboard/applications/:id/requests: the applicant answers the lender's requests on their own
 * application (intent upload, multipart with one file; intent reply). Another's application or item is 404.
 */

export const loader = postOnly;

export const action = defineAction({
  guard: signedIn,
  handle: async ({ request, params }: Route.ActionArgs, user) => jsonAnswer(await applicantRequestAction(request, params.id, user)),
});
