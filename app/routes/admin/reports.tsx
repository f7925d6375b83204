import { data, isRouteErrorResponse } from "react-router";
import { PageLoadError } from "~/components/admin/page-load-error";
import { ReportsPage } from "~/components/admin/reports/reports-page";
import { privatePageMeta } from "~/content/private-page-meta";
import { readRegBPage, readReportRange } from "~/domain/validation/reports";
import { callerOf } from "~/server/platform/http/request-info.server";
import { viewPipelineReport } from "~/server/staff/index.server";
import { delinquencyReport } from "~/server/loans/index.server";
import type { Route } from "./+types/reports";
import { staffWith } from "~/server/accounts/index.server";
import { defineLoader } from "~/server/platform/http/define-route.server";

export const meta: Route.MetaFunction = () => privatePageMeta("Pipeline Reports", "Private Loans administration: pipeline reports.");

/**
 * GET /admin/reports?from=&to=: the Pipeline Reports of a date range (default the last 90 days), any
 * staff role; each load is audited ('reports.view'). A bad range shows the form's message, with a 400.
 * The Reg B list pages by ?regbAfter= / ?regbBefore= / ?regbLast=1 (a bad token: its first page).
 * Below them, Delinquency and Roll Rates of the loan book (the delinquency job's totals, decision 0096).
 */
export const loader = defineLoader({
  guard: staffWith("staff.read"),
  handle: async ({ request, context }: Route.LoaderArgs, staff) => {
    const params = new URL(request.url).searchParams;
    const read = readReportRange(params);
    if (!read.ok) return data({ range: read.range, message: read.message, report: null, delinquency: null }, { status: 400 });
    const report = await viewPipelineReport(read.range, callerOf(staff, request, context), readRegBPage(params));
    return { range: read.range, message: null, report, delinquency: await delinquencyReport() };
  },
});

export default function AdminReportsRoute({ loaderData }: Route.ComponentProps) {
  return <ReportsPage range={loaderData.range} message={loaderData.message} report={loaderData.report} delinquency={loaderData.delinquency} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const detail = isRouteErrorResponse(error) && error.status < 500 ? `${error.status} ${error.statusText}` : "The reports could not be loaded. Please try again.";
  return <PageLoadError page={{ title: "Pipeline Reports", heading: "Error Loading Reports", fallback: "The reports could not be loaded. Please try again." }} detail={detail} />;
}
