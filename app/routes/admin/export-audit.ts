import { readReportRange } from "~/domain/validation/reports";
import { requireStaff } from "~/server/accounts/session.server";
import { exportResponse } from "~/server/staff/exports.server";
import { noStoreJson } from "~/server/platform/http/action-answer.server";
import { requestInfo } from "~/server/platform/http/request-info.server";
import type { Route } from "./+types/export-audit";

/**
 * GET /admin/exports/audit?from=&to=: Export CSV of the audit log written in the range (with the hash
 * chain's sequence and row hash), streamed; audited ('audit.export'). Any staff role; a bad range is a
 * 400 with the form's message.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff(request, "staff.read");
  const read = readReportRange(new URL(request.url).searchParams);
  if (!read.ok) return noStoreJson({ ok: false, message: read.message }, 400);
  return exportResponse("audit", read.range, staff, requestInfo(request, context), request.method);
}
