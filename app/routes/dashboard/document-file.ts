import { serveOwnDocument } from "~/server/applications/index.server";
import { callerOf } from "~/server/platform/http/request-info.server";
import type { Route } from "./+types/document-file";
import { signedIn } from "~/server/accounts/index.server";
import { defineLoader } from "~/server/platform/http/define-route.server";

/**
 * GET /dashboard/documents/file?d=&exp=&disposition=&sig=: one of the signed-in applicant's own
 * documents, through the 60-second link the dashboard's action made for them.
 */
export const loader = defineLoader({
  guard: signedIn,
  handle: async ({ request, context }: Route.LoaderArgs, user) => serveOwnDocument(new URL(request.url), callerOf(user, request, context), { method: request.method }),
});
