import type { LoaderFunctionArgs } from "react-router";
import { readReportRange } from "~/domain/validation/reports";
import { staffWith } from "~/server/accounts/index.server";
import { exportResponse } from "~/server/staff/index.server";
import { noStoreJson } from "~/server/platform/http/action-answer.server";
import { defineLoader } from "~/server/platform/http/define-route.server";
import { callerOf } from "~/server/platform/http/request-info.server";

/**
 * The loader of a CSV export route (GET ?from=&to=): any staff role; the range read from the query, a
 * bad one a 400 with the form's message; the export itself streamed and audited by the staff module.
 */
export function exportLoader(kind: Parameters<typeof exportResponse>[0]) {
  return defineLoader({
    guard: staffWith("staff.read"),
    handle: async ({ request, context }: LoaderFunctionArgs, staff) => {
      const read = readReportRange(new URL(request.url).searchParams);
      if (!read.ok) return noStoreJson({ ok: false, message: read.message }, 400);
      return exportResponse(kind, read.range, callerOf(staff, request, context), request.method);
    },
  });
}
