import { serveSignedDocument } from "~/server/applications/index.server";
import type { Route } from "./+types/documents-file";
import { callerOf } from "~/server/platform/http/request-info.server";
import { staffWith } from "~/server/accounts/index.server";
import { defineLoader } from "~/server/platform/http/define-route.server";

/**
 * GET /api/documents/file?d=&exp=&disposition=&sig=: a stored document for the admin its 60-second
 * link was signed for (see app/server/applications/signed-links.server.ts). Admin session and second factor
 * first (requireStaff), then the link; 403 when it is altered, expired or another admin's.
 */
export const loader = defineLoader({
  guard: staffWith("sensitive.reveal"),
  handle: async ({ request, context }: Route.LoaderArgs, admin) => serveSignedDocument(new URL(request.url), callerOf(admin, request, context), { method: request.method }),
});
