import { callerOf } from "~/server/platform/http/request-info.server";
import { serveSignedAgreement } from "~/server/offers/index.server";
import type { Route } from "./+types/application-agreement";
import { staffWith } from "~/server/accounts/index.server";
import { defineLoader } from "~/server/platform/http/define-route.server";

/**
 * GET /admin/applications/:id/agreement: the application's signed loan agreement (PDF, attachment,
 * no-store) for staff with a verified second factor; audited ('agreement.download', the staff actor).
 */
export const loader = defineLoader({
  guard: staffWith("sensitive.reveal"),
  handle: async ({ request, context, params }: Route.LoaderArgs, admin) => serveSignedAgreement(params.id, callerOf({ side: "staff", admin }, request, context), { method: request.method }),
});
