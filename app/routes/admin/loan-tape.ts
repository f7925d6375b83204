import { requireStaff } from "~/server/accounts/session.server";
import { privateDownloadHeaders } from "~/server/platform/http/private-download.server";
import { requestInfo } from "~/server/platform/http/request-info.server";
import { exportLoanTape } from "~/server/loans/staff-loans.server";
import type { Route } from "./+types/loan-tape";

/**
 * GET /admin/loans/tape: Export Loan Tape, a CSV of every loan's terms, principal balance, status,
 * next due day and days past due (attachment, no-store), for staff with a verified second factor;
 * audited ('loan_tape.export' with the row count). GET only.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requireStaff(request, "staff.read");
  const tape = await exportLoanTape(admin, requestInfo(request, context));
  return new Response(request.method === "HEAD" ? null : tape.csv, {
    status: 200,
    headers: privateDownloadHeaders(tape.fileName, Buffer.byteLength(tape.csv), "text/csv; charset=utf-8"),
  });
}
