import { respond } from "~/server/platform/http/action-answer.server";
import { callerOf } from "~/server/platform/http/request-info.server";
import { parseLoanId, protectionAction } from "~/server/loans/index.server";
import type { Route } from "./+types/loan-protections";
import { staffWith } from "~/server/accounts/index.server";
import { defineAction, postOnly } from "~/server/platform/http/define-route.server";

/**
 * POST /admin/loans/:id/protections (admins and loan officers: collections.work): intents
 * record-protection (an active-duty servicemember or a bankruptcy filing) and end-protection. Action only.
 */

export const loader = postOnly;

export const action = defineAction({
  guard: staffWith("collections.work"),
  handle: async ({ request, params, context }: Route.ActionArgs, staff) => respond(await protectionAction(request, parseLoanId(params.id), callerOf(staff, request, context))),
});
