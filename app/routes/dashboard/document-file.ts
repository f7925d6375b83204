import { requireUser } from "~/server/accounts/session.server";
import { serveOwnDocument } from "~/server/applications/own-documents.server";
import { requestInfo } from "~/server/platform/http/request-info.server";
import type { Route } from "./+types/document-file";

/**
 * GET /dashboard/documents/file?d=&exp=&disposition=&sig=: one of the signed-in applicant's own
 * documents, through the 60-second link the dashboard's action made for them.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request);
  return serveOwnDocument(new URL(request.url), user, requestInfo(request, context), { method: request.method });
}
