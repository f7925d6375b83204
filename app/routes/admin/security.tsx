import { SecurityPage } from "~/components/admin/security/security-page";
import { pageMeta } from "~/content/site";
import { getSecurityOverview } from "~/server/staff/monitoring.server";
import { requireStaff } from "~/server/accounts/session.server";
import type { Route } from "./+types/security";
import { adminLoadErrorBoundary } from "~/components/admin/page-load-error";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Security Settings", "Private Loans administration: security settings."),
  { name: "robots", content: "noindex" },
];

/** Admins only. Read-only: this page has no action (its buttons show a notice and call nothing). */
export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, "staff.read");
  return getSecurityOverview();
}

export default function AdminSecurityPage({ loaderData }: Route.ComponentProps) {
  return <SecurityPage facts={loaderData} />;
}

export const ErrorBoundary = adminLoadErrorBoundary("security");
