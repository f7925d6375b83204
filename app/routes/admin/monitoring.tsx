import { MonitoringPage } from "~/components/admin/monitoring/monitoring-page";
import { parseMonitoringHours } from "~/domain/monitoring";
import { can } from "~/domain/staff-permissions";
import { privatePageMeta } from "~/content/private-page-meta";
import { loadMonitoring } from "~/server/staff/index.server";
import { respond } from "~/server/platform/http/action-answer.server";
import { requestInfo } from "~/server/platform/http/request-info.server";
import { jobAction, loadJobs } from "~/server/platform/jobs/job-admin.server";
import type { Route } from "./+types/monitoring";
import { adminLoadErrorBoundary } from "~/components/admin/page-load-error";
import { staffWith } from "~/server/accounts/index.server";
import { defineAction, defineLoader } from "~/server/platform/http/define-route.server";

export const meta: Route.MetaFunction = () => privatePageMeta("Activity Monitoring", "Private Loans administration: activity monitoring.");

/** Staff who read (staff.read). A failed query comes back as `{ ok: false }` (a toast), not as an error page. */
export const loader = defineLoader({
  guard: staffWith("staff.read"),
  handle: async ({ request }: Route.LoaderArgs, staff) => {
    const hours = parseMonitoringHours(new URL(request.url).searchParams.get("hours"));
    return { ...(await loadMonitoring(hours)), jobs: await loadJobs(), canRetryJobs: can(staff.role, "jobs.run") };
  },
});

/** Retry a failed background job (jobs.run: admins). */
export const action = defineAction({
  guard: staffWith("jobs.run"),
  handle: async ({ request, context }: Route.ActionArgs, admin) => respond(await jobAction(request, admin, requestInfo(request, context))),
});

export default function AdminMonitoringPage({ loaderData }: Route.ComponentProps) {
  const { jobs, canRetryJobs, ...data } = loaderData;
  return <MonitoringPage data={data} jobs={jobs} canRetryJobs={canRetryJobs} />;
}

export const ErrorBoundary = adminLoadErrorBoundary("monitoring");
