import { data } from "react-router";
import { AdminApplicationsPage, type AdminApplicationsData } from "~/components/admin/applications/admin-applications-page";
import { pageMeta } from "~/content/site";
import { adminLoadErrorBoundary } from "~/components/admin/page-load-error";
import { parseReviewListParams } from "~/domain/validation/review";
import { permissionsOf } from "~/domain/staff-permissions";
import { listApplicationsForAdmin, reviewActionFromRequest } from "~/server/applications/staff-applications.server";
import { requireStaff } from "~/server/accounts/session.server";
import { getConfig } from "~/server/platform/config.server";
import { logFailure } from "~/server/platform/log/describe-error.server";
import { respond } from "~/server/platform/http/action-answer.server";
import { assertSameOrigin } from "~/server/platform/http/origin.server";
import type { Route } from "./+types/applications";
import { requestInfo } from "~/server/platform/http/request-info.server";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Admin Dashboard", "Private Loans administration."),
  { name: "robots", content: "noindex" },
];

/** Admins with a verified second factor only; the list read is audited ('applications.list'). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requireStaff(request, "staff.read");
  const params = parseReviewListParams(new URL(request.url).searchParams);
  try {
    return {
      list: await listApplicationsForAdmin(params, admin, requestInfo(request, context)),
      originationFeePercent: getConfig().originationFeePercent,
      maxAprPercent: getConfig().maxAprPercent,
      permissions: permissionsOf(admin.role),
    } satisfies AdminApplicationsData;
  } catch (error) {
    logFailure("admin", "loading applications failed", error);
    // Logged here: the boundary below shows the failure, and the response carries no details.
    throw data(null, { status: 500 });
  }
}

/** approve | deny | note | encrypt-migration, each validated by its schema (app/domain/validation/review.ts). */
export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const admin = await requireStaff(request, "applications.work");
  return respond(await reviewActionFromRequest(request, admin, requestInfo(request, context)));
}

export const ErrorBoundary = adminLoadErrorBoundary("applications");

export default function AdminDashboardRoute({ loaderData }: Route.ComponentProps) {
  return <AdminApplicationsPage data={loaderData} />;
}
