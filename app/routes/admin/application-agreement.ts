import { requireStaff } from "~/server/accounts/session.server";
import { requestInfo } from "~/server/platform/http/request-info.server";
import { serveSignedAgreement } from "~/server/offers/agreement-file.server";
import type { Route } from "./+types/application-agreement";

/**
 * GET /admin/applications/:id/agreement: the application's signed loan agreement (PDF, attachment,
 * no-store) for staff with a verified second factor; audited ('agreement.download', the staff actor).
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const admin = await requireStaff(request, "sensitive.reveal");
  return serveSignedAgreement(params.id, { side: "staff", admin }, requestInfo(request, context), { method: request.method });
}
