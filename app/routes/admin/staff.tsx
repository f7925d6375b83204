import { StaffPage } from "~/components/admin/staff/staff-page";
import { adminLoadErrorBoundary } from "~/components/admin/page-load-error";
import { revalidateAfterPost } from "~/components/admin/moderation/revalidate";
import { pageMeta } from "~/content/site";
import { requireStaff } from "~/server/accounts/session.server";
import { respond } from "~/server/platform/http/action-answer.server";
import { assertSameOrigin } from "~/server/platform/http/origin.server";
import { requestInfo } from "~/server/platform/http/request-info.server";
import { staffAction } from "~/server/staff/staff-actions.server";
import { listStaff } from "~/server/staff/staff.server";
import type { Route } from "./+types/staff";

/** After any post (even a refused one) the list is read again: another admin may have changed it. */
export const shouldRevalidate = revalidateAfterPost;

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Staff", "Private Loans administration: staff."),
  { name: "robots", content: "noindex" },
];

/** Admins only (staff.manage): the staff list and open invitations. */
export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireStaff(request, "staff.manage");
  return { overview: await listStaff(), selfId: admin.id };
}

/** Invite, change a role, deactivate, reset another's second factor, cancel an invitation (by `intent`). */
export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const admin = await requireStaff(request, "staff.manage");
  return respond(
    await staffAction(request, admin, requestInfo(request, context)),
  );
}

export default function AdminStaffPage({
  loaderData,
  actionData,
}: Route.ComponentProps) {
  return (
    <StaffPage
      data={loaderData.overview}
      selfId={loaderData.selfId}
      actionData={actionData}
    />
  );
}

export const ErrorBoundary = adminLoadErrorBoundary("staff");
