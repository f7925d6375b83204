import { readReportRange } from "~/domain/validation/reports";
import { exportResponse } from "~/server/staff/index.server";
import { noStoreJson } from "~/server/platform/http/action-answer.server";
import { callerOf } from "~/server/platform/http/request-info.server";
import type { Route } from "./+types/export-applications";
import { staffWith } from "~/server/accounts/index.server";
import { defineLoader } from "~/server/platform/http/define-route.server";

/**
 * GET /admin/exports/applications?from=&to=: Export CSV of the applications submitted in the range,
 * streamed, SSN and bank numbers masked; audited ('applications.export'). Any staff role (auditors
 * export too); a bad range is a 400 with the form's message.
 */
export const loader = defineLoader({
  guard: staffWith("staff.read"),
  handle: async ({ request, context }: Route.LoaderArgs, staff) => {
    const read = readReportRange(new URL(request.url).searchParams);
    if (!read.ok) return noStoreJson({ ok: false, message: read.message }, 400);
    return exportResponse("applications", read.range, callerOf(staff, request, context), request.method);
  },
});
