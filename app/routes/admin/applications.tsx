import { data } from "react-router";
import { AdminApplicationsPage, type AdminApplicationsData } from "~/components/admin/applications/admin-applications-page";
import { pageMeta } from "~/content/site";
import { parseReviewListParams } from "~/domain/validation/review";
import { listApplicationsForAdmin, reviewActionFromRequest } from "~/server/admin/applications.server";
import { requireAdmin } from "~/server/auth/session.server";
import { assertSameOrigin } from "~/server/http/origin.server";
import type { Route } from "./+types/applications";
import { requestInfo } from "~/server/http/request-info.server";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Admin Dashboard", "Private Loans administration."),
  { name: "robots", content: "noindex" },
];

/** Admins with a verified second factor only; the list read is audited ('applications.list'). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  const params = parseReviewListParams(new URL(request.url).searchParams);
  try {
    const list = await listApplicationsForAdmin(params, admin, requestInfo(request, context));
    return data<AdminApplicationsData>({ list, loadError: false });
  } catch (error) {
    console.error(`[admin] loading applications failed: ${error instanceof Error ? error.message : String(error)}`);
    return data<AdminApplicationsData>({ list: null, loadError: true }, { status: 500 });
  }
}

/** approve | deny | note | encrypt-migration, each validated by its schema (app/domain/validation/review.ts). */
export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const admin = await requireAdmin(request);
  const result = await reviewActionFromRequest(request, admin, requestInfo(request, context));
  return data(result.body, { status: result.status });
}

export default function AdminDashboardRoute({ loaderData }: Route.ComponentProps) {
  return <AdminApplicationsPage data={loaderData} />;
}
