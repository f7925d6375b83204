import { messageAction } from "~/server/conversation/index.server";
import { jsonAnswer } from "~/server/platform/http/action-answer.server";
import { callerOf } from "~/server/platform/http/request-info.server";
import type { Route } from "./+types/application-messages";
import { staffWith } from "~/server/accounts/index.server";
import { defineAction, postOnly } from "~/server/platform/http/define-route.server";

/**
 * POST /admin/applications/:id/messages: staff with a verified second factor write to the applicant
 * (intent send, audited) or mark the conversation read for themselves (intent read).
 */

export const loader = postOnly;

export const action = defineAction({
  guard: staffWith("applications.work"),
  handle: async ({ request, params, context }: Route.ActionArgs, admin) => {
    const actor = { id: admin.id, name: admin.name, email: admin.email };
    return jsonAnswer(await messageAction(request, params.id, callerOf({ id: admin.id, side: "staff", actor }, request, context)));
  },
});
