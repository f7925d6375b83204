import { MonitoringPage } from "~/components/admin/monitoring/monitoring-page";
import { parseMonitoringHours } from "~/domain/monitoring";
import { pageMeta } from "~/content/site";
import { loadMonitoring } from "~/server/staff/monitoring.server";
import { requireStaff } from "~/server/accounts/session.server";
import type { Route } from "./+types/monitoring";
import { adminLoadErrorBoundary } from "~/components/admin/page-load-error";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Activity Monitoring", "Private Loans administration: activity monitoring."),
  { name: "robots", content: "noindex" },
];

/** Admins only. A failed query comes back as `{ ok: false }` (a toast), not as an error page. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, "staff.read");
  const hours = parseMonitoringHours(new URL(request.url).searchParams.get("hours"));
  return loadMonitoring(hours);
}

export default function AdminMonitoringPage({ loaderData }: Route.ComponentProps) {
  return <MonitoringPage data={loaderData} />;
}

export const ErrorBoundary = adminLoadErrorBoundary("monitoring");
