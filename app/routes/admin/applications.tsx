import { data } from "react-router";
import { AdminApplicationsPage, type AdminApplicationsData } from "~/components/admin/applications/admin-applications-page";
import { privatePageMeta } from "~/content/private-page-meta";
import { adminLoadErrorBoundary } from "~/components/admin/page-load-error";
import { parseReviewListParams } from "~/domain/validation/review";
import { permissionsOf } from "~/domain/staff-permissions";
import { listApplicationsForAdmin, reviewActionFromRequest } from "~/server/applications/index.server";
import { getConfig } from "~/server/platform/config.server";
import { logFailure } from "~/server/platform/log/describe-error.server";
import { respond } from "~/server/platform/http/action-answer.server";
import type { Route } from "./+types/applications";
import { callerOf } from "~/server/platform/http/request-info.server";
import { staffWith } from "~/server/accounts/index.server";
import { defineAction, defineLoader } from "~/server/platform/http/define-route.server";

export const meta: Route.MetaFunction = () => privatePageMeta("Admin Dashboard", "Private Loans administration.");

/** Admins with a verified second factor only; the list read is audited ('applications.list'). */
export const loader = defineLoader({
  guard: staffWith("staff.read"),
  handle: async ({ request, context }: Route.LoaderArgs, admin) => {
    const params = parseReviewListParams(new URL(request.url).searchParams);
    try {
      return {
        list: await listApplicationsForAdmin(params, callerOf(admin, request, context)),
        originationFeePercent: getConfig().originationFeePercent,
        maxAprPercent: getConfig().maxAprPercent,
        permissions: permissionsOf(admin.role),
      } satisfies AdminApplicationsData;
    } catch (error) {
      logFailure("admin", "loading applications failed", error);
      // Logged here: the boundary below shows the failure, and the response carries no details.
      throw data(null, { status: 500 });
    }
  },
});

/** approve | deny | note | encrypt-migration, each validated by its schema (app/domain/validation/review.ts). */
export const action = defineAction({
  guard: staffWith("applications.work"),
  handle: async ({ request, context }: Route.ActionArgs, admin) => respond(await reviewActionFromRequest(request, callerOf(admin, request, context))),
});

export const ErrorBoundary = adminLoadErrorBoundary("applications");

export default function AdminDashboardRoute({ loaderData }: Route.ComponentProps) {
  return <AdminApplicationsPage data={loaderData} />;
}
