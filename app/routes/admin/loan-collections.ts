import { respond } from "~/server/platform/http/action-answer.server";
import { callerOf } from "~/server/platform/http/request-info.server";
import { collectionsAction } from "~/server/loans/index.server";
import type { Route } from "./+types/loan-collections";
import { staffWith } from "~/server/accounts/index.server";
import { defineAction, postOnly } from "~/server/platform/http/define-route.server";

/**
 * POST /admin/loans/:id/collections: the loan's Collections panel (collections.work: admins and loan
 * officers): assign-to-me | log-contact | promise-to-pay | cancel-promise. Action only.
 */

export const loader = postOnly;

export const action = defineAction({
  guard: staffWith("collections.work"),
  handle: async ({ request, params, context }: Route.ActionArgs, staff) => respond(await collectionsAction(request, params.id, callerOf(staff, request, context))),
});
