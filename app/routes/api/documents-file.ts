import { serveSignedDocument } from "~/server/applications/documents.server";
import { requireStaff } from "~/server/accounts/session.server";
import type { Route } from "./+types/documents-file";
import { requestInfo } from "~/server/platform/http/request-info.server";

/**
 * GET /api/documents/file?d=&exp=&disposition=&sig=: a stored document for the admin its 60-second
 * link was signed for (see app/server/applications/signed-links.server.ts). Admin session and second factor
 * first (requireStaff), then the link; 403 when it is altered, expired or another admin's.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requireStaff(request, "sensitive.reveal");
  return serveSignedDocument(new URL(request.url), admin, requestInfo(request, context), { method: request.method });
}
