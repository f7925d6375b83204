import { callerOf } from "~/server/platform/http/request-info.server";
import { serveModificationFile } from "~/server/loans/index.server";
import type { Route } from "./+types/loan-plan-file";
import { staffWith } from "~/server/accounts/index.server";
import { defineLoader } from "~/server/platform/http/define-route.server";

/**
 * GET /admin/loans/:id/plans/:planId: a loan's signed modification (PDF, attachment, no-store) for
 * staff who may open signed documents (as the loan agreement), with a verified second factor; audited
 * ('plan.download', the staff actor).
 */
export const loader = defineLoader({
  guard: staffWith("sensitive.reveal"),
  handle: async ({ request, context, params }: Route.LoaderArgs, admin) => serveModificationFile(params.id, params.planId, callerOf({ side: "staff" as const, admin }, request, context), { method: request.method }),
});
