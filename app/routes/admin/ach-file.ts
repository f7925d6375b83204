import { privateDownloadHeaders } from "~/server/platform/http/private-download.server";
import { callerOf } from "~/server/platform/http/request-info.server";
import { downloadAchBatch } from "~/server/loans/index.server";
import type { Route } from "./+types/ach-file";
import { isAppError } from "~/server/platform/http/app-error.server";
import { staffWith } from "~/server/accounts/index.server";
import { defineLoader } from "~/server/platform/http/define-route.server";

/**
 * GET /admin/ach/:id/file: the batch's NACHA file (text/plain attachment `<file_name>.ach`, no-store)
 * for staff with a verified second factor, decrypted on the way out; each download audited ('ach.export',
 * no numbers). It holds account numbers: it is never cached and never linked from anywhere but /admin/ach.
 */
export const loader = defineLoader({
  guard: staffWith("servicing.manage"),
  handle: async ({ request, context, params }: Route.LoaderArgs, admin) => {
    let file: Awaited<ReturnType<typeof downloadAchBatch>>;
    try {
      file = await downloadAchBatch(params.id, callerOf(admin, request, context));
    } catch (error) {
      // Its key is no longer configured: said plainly, never a garbled file.
      if (isAppError(error, "servicing")) throw new Response(error.message, { status: error.status, headers: { "Cache-Control": "no-store" } });
      throw error;
    }
    if (!file) throw new Response("Not Found", { status: 404, headers: { "Cache-Control": "no-store" } });
    return new Response(request.method === "HEAD" ? null : file.content, {
      status: 200,
      headers: privateDownloadHeaders(`${file.fileName}.ach`, Buffer.byteLength(file.content), "text/plain; charset=us-ascii"),
    });
  },
});
