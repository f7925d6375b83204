import { requireUser } from "~/server/accounts/session.server";
import { requestInfo } from "~/server/platform/http/request-info.server";
import { serveSignedAgreement } from "~/server/offers/agreement-file.server";
import type { Route } from "./+types/application-agreement";

/**
 * GET /dashboard/applications/:id/agreement: the signed loan agreement (PDF, attachment, no-store) of
 * the signed-in applicant's own application; another person's id, a malformed id and staff get 404.
 * Each download is audited ('agreement.download').
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  return serveSignedAgreement(params.id, { side: "applicant", viewer: user }, requestInfo(request, context), { method: request.method });
}
