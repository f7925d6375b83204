import { respond } from "~/server/platform/http/action-answer.server";
import { callerOf } from "~/server/platform/http/request-info.server";
import { chargeOffAction, parseLoanId } from "~/server/loans/index.server";
import type { Route } from "./+types/loan-charge-off";
import { staffWith } from "~/server/accounts/index.server";
import { defineAction, postOnly } from "~/server/platform/http/define-route.server";

/**
 * POST /admin/loans/:id/charge-off (admins: servicing.manage): intents charge-off (with a reason; at or
 * above the four-eyes threshold it waits for another admin), approve-charge-off, reject-charge-off and
 * settle (the agreed amount received; the loan closes as Settled). Action only.
 */

export const loader = postOnly;

export const action = defineAction({
  guard: staffWith("servicing.manage"),
  handle: async ({ request, params, context }: Route.ActionArgs, admin) => respond(await chargeOffAction(request, parseLoanId(params.id), callerOf(admin, request, context))),
});
