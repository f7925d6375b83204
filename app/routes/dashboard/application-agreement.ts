import { callerOf } from "~/server/platform/http/request-info.server";
import { serveSignedAgreement } from "~/server/offers/index.server";
import type { Route } from "./+types/application-agreement";
import { signedIn } from "~/server/accounts/index.server";
import { defineLoader } from "~/server/platform/http/define-route.server";

/**
 * GET /dashboard/applications/:id/agreement: the signed loan agreement (PDF, attachment, no-store) of
 * the signed-in applicant's own application; another person's id, a malformed id and staff get 404.
 * Each download is audited ('agreement.download').
 */
export const loader = defineLoader({
  guard: signedIn,
  handle: async ({ request, context, params }: Route.LoaderArgs, user) => serveSignedAgreement(params.id, callerOf({ side: "applicant", viewer: user }, request, context), { method: request.method }),
});
