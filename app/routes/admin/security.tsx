import { SecurityPage } from "~/components/admin/security/security-page";
import { privatePageMeta } from "~/content/private-page-meta";
import { getSecurityOverview } from "~/server/staff/index.server";
import type { Route } from "./+types/security";
import { adminLoadErrorBoundary } from "~/components/admin/page-load-error";
import { staffWith } from "~/server/accounts/index.server";
import { defineLoader } from "~/server/platform/http/define-route.server";

export const meta: Route.MetaFunction = () => privatePageMeta("Security Settings", "Private Loans administration: security settings.");

/** Admins only. Read-only: this page has no action (its buttons show a notice and call nothing). */
export const loader = defineLoader({
  guard: staffWith("staff.read"),
  handle: async (_args: Route.LoaderArgs) => getSecurityOverview(),
});

export default function AdminSecurityPage({ loaderData }: Route.ComponentProps) {
  return <SecurityPage facts={loaderData} />;
}

export const ErrorBoundary = adminLoadErrorBoundary("security");
