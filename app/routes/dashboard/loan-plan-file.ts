import { callerOf } from "~/server/platform/http/request-info.server";
import { serveModificationFile } from "~/server/loans/index.server";
import type { Route } from "./+types/loan-plan-file";
import { signedIn } from "~/server/accounts/index.server";
import { defineLoader } from "~/server/platform/http/define-route.server";

/**
 * GET /dashboard/loans/:id/plans/:planId: the borrower's own signed loan modification (PDF, attachment,
 * no-store; audited 'plan.download'). Another person's loan, a malformed id, staff and a plan not signed
 * get 404.
 */
export const loader = defineLoader({
  guard: signedIn,
  handle: async ({ request, context, params }: Route.LoaderArgs, user) => serveModificationFile(params.id, params.planId, callerOf({ side: "borrower" as const, viewer: user }, request, context), { method: request.method }),
});
