import { Readable } from "node:stream";
import { requireUser } from "~/server/accounts/session.server";
import { DataExportRefused, openDataExport } from "~/server/accounts/data-export.server";
import { getDb } from "~/server/platform/db/client.server";
import { noStoreJson } from "~/server/platform/http/action-answer.server";
import { privateDownloadHeaders } from "~/server/platform/http/private-download.server";
import { requestInfo } from "~/server/platform/http/request-info.server";
import { getStorage } from "~/server/platform/storage/storage.server";
import type { Route } from "./+types/data-download";

/**
 * GET /account/data/download/:token: the link from the "Your data file is ready" e-mail.
 * Signed out: to /auth and back here. Only the person the file was made for (another person's token
 * and an unknown one: the same 404), within 24 hours (410 after). Audited; an attachment nobody caches.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireUser(request, { message: "Sign in to download your data." });
  try {
    const file = await openDataExport(getDb(), getStorage(), params.token, user, requestInfo(request, context));
    return new Response(Readable.toWeb(file.body) as ReadableStream<Uint8Array>, {
      status: 200,
      headers: privateDownloadHeaders(file.fileName, file.size, "application/zip"),
    });
  } catch (error) {
    if (error instanceof DataExportRefused) return noStoreJson({ ok: false, message: error.message }, error.status);
    throw error;
  }
}
