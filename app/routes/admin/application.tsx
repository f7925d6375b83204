import { data, isRouteErrorResponse } from "react-router";
import { AdminApplicationPage } from "~/components/admin/application-page/admin-application-page";
import { adminLoadErrorBoundary } from "~/components/admin/page-load-error";
import { NotFoundPage } from "~/components/error-page";
import { permissionsOf } from "~/domain/staff-permissions";
import { privatePageMeta } from "~/content/private-page-meta";
import type { AdminApplicationPageData } from "~/domain/views/admin-application-page";
import { applicationPageAction, loadAdminApplication, parseApplicationId } from "~/server/applications/index.server";
import { getConfig } from "~/server/platform/config.server";
import { respond } from "~/server/platform/http/action-answer.server";
import { callerOf } from "~/server/platform/http/request-info.server";
import { logFailure } from "~/server/platform/log/describe-error.server";
import type { Route } from "./+types/application";
import { orNotFound } from "./or-not-found";
import { staffWith } from "~/server/accounts/index.server";
import { defineAction, defineLoader } from "~/server/platform/http/define-route.server";
import { revalidateExcept } from "~/components/revalidate";

export const meta: Route.MetaFunction = () => privatePageMeta("Application", "Private Loans administration: one loan application.");

/** Admins with a verified second factor only; an id that names no application is a 404; the read is audited ('application.view'). */
export const loader = defineLoader({
  guard: staffWith("staff.read"),
  handle: async ({ request, context, params }: Route.LoaderArgs, admin) => {
    const id = orNotFound(parseApplicationId(params.id));
    let found;
    try {
      found = await loadAdminApplication(id, callerOf(admin, request, context));
    } catch (error) {
      logFailure("admin", "loading an application failed", error);
      throw data(null, { status: 500 });
    }
    return {
      application: orNotFound(found),
      originationFeePercent: getConfig().originationFeePercent,
      maxAprPercent: getConfig().maxAprPercent,
      permissions: permissionsOf(admin.role),
      viewerId: admin.id,
    } satisfies AdminApplicationPageData;
  },
});

/** start-review | approve | deny | close-incomplete | note | link, each validated (app/server/applications/staff-application-page.server.ts). */
export const action = defineAction({
  guard: staffWith("applications.work"),
  handle: async ({ request, context, params }: Route.ActionArgs, admin) => respond(await applicationPageAction(request, params.id, callerOf(admin, request, context))),
});

/** Generating a document link changes nothing on the page: do not reload (and re-audit) it for that. */
export const shouldRevalidate = revalidateExcept("link");

const LoadError = adminLoadErrorBoundary("application");

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  return <LoadError error={error} />;
}

export default function AdminApplicationRoute({ loaderData }: Route.ComponentProps) {
  return <AdminApplicationPage data={loaderData} />;
}
