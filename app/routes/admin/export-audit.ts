import { readReportRange } from "~/domain/validation/reports";
import { exportResponse } from "~/server/staff/index.server";
import { noStoreJson } from "~/server/platform/http/action-answer.server";
import { callerOf } from "~/server/platform/http/request-info.server";
import type { Route } from "./+types/export-audit";
import { staffWith } from "~/server/accounts/index.server";
import { defineLoader } from "~/server/platform/http/define-route.server";

/**
 * GET /admin/exports/audit?from=&to=: Export CSV of the audit log written in the range (with the hash
 * chain's sequence and row hash), streamed; audited ('audit.export'). Any staff role; a bad range is a
 * 400 with the form's message.
 */
export const loader = defineLoader({
  guard: staffWith("staff.read"),
  handle: async ({ request, context }: Route.LoaderArgs, staff) => {
    const read = readReportRange(new URL(request.url).searchParams);
    if (!read.ok) return noStoreJson({ ok: false, message: read.message }, 400);
    return exportResponse("audit", read.range, callerOf(staff, request, context), request.method);
  },
});
