import { privateDownloadHeaders } from "~/server/platform/http/private-download.server";
import { callerOf } from "~/server/platform/http/request-info.server";
import { exportLoanTape } from "~/server/loans/index.server";
import type { Route } from "./+types/loan-tape";
import { staffWith } from "~/server/accounts/index.server";
import { defineLoader } from "~/server/platform/http/define-route.server";

/**
 * GET /admin/loans/tape: Export Loan Tape, a CSV of every loan's terms, principal balance, status,
 * next due day and days past due (attachment, no-store), for staff with a verified second factor;
 * audited ('loan_tape.export' with the row count). GET only.
 */
export const loader = defineLoader({
  guard: staffWith("staff.read"),
  handle: async ({ request, context }: Route.LoaderArgs, admin) => {
    const tape = await exportLoanTape(callerOf(admin, request, context));
    return new Response(request.method === "HEAD" ? null : tape.csv, {
      status: 200,
      headers: privateDownloadHeaders(tape.fileName, Buffer.byteLength(tape.csv), "text/csv; charset=utf-8"),
    });
  },
});
