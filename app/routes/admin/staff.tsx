import { StaffPage } from "~/components/admin/staff/staff-page";
import { adminLoadErrorBoundary } from "~/components/admin/page-load-error";
import { revalidateAfterPost } from "~/components/admin/moderation/revalidate";
import { privatePageMeta } from "~/content/private-page-meta";
import { respond } from "~/server/platform/http/action-answer.server";
import { callerOf } from "~/server/platform/http/request-info.server";
import { staffAction } from "~/server/staff/index.server";
import { listStaff } from "~/server/staff/index.server";
import type { Route } from "./+types/staff";
import { staffWith } from "~/server/accounts/index.server";
import { defineAction, defineLoader } from "~/server/platform/http/define-route.server";

/** After any post (even a refused one) the list is read again: another admin may have changed it. */
export const shouldRevalidate = revalidateAfterPost;

export const meta: Route.MetaFunction = () => privatePageMeta("Staff", "Private Loans administration: staff.");

/** Admins only (staff.manage): the staff list and open invitations. */
export const loader = defineLoader({
  guard: staffWith("staff.manage"),
  handle: async (_args: Route.LoaderArgs, admin) => ({ overview: await listStaff(), selfId: admin.id }),
});

/** Invite, change a role, deactivate, reset another's second factor, cancel an invitation (by `intent`). */
export const action = defineAction({
  guard: staffWith("staff.manage"),
  handle: async ({ request, context }: Route.ActionArgs, admin) => {
    return respond(await staffAction(request, callerOf(admin, request, context)));
  },
});

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
