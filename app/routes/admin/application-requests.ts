import { staffRequestAction } from "~/server/conversation/index.server";
import { jsonAnswer } from "~/server/platform/http/action-answer.server";
import { callerOf } from "~/server/platform/http/request-info.server";
import type { Route } from "./+types/application-requests";
import { staffWith } from "~/server/accounts/index.server";
import { defineAction, postOnly } from "~/server/platform/http/define-route.server";

/**
 * POST /admin/applications/:id/requests: staff with a verified second factor request documents and
 * accept or reject the answers (intent request | accept | reject), each audited.
 */

export const loader = postOnly;

export const action = defineAction({
  guard: staffWith("applications.work"),
  handle: async ({ request, params, context }: Route.ActionArgs, admin) => jsonAnswer(await staffRequestAction(request, params.id, callerOf(admin, request, context))),
});
