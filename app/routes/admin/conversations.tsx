import { ApplicationMessagesPage } from "~/components/admin/conversations/application-messages-page";
import { adminLoadErrorBoundary } from "~/components/admin/page-load-error";
import { privatePageMeta } from "~/content/private-page-meta";
import { parsePageRequest } from "~/domain/paging";
import { listStaffConversations } from "~/server/conversation/index.server";
import { callerOf } from "~/server/platform/http/request-info.server";
import type { Route } from "./+types/conversations";
import { staffWith } from "~/server/accounts/index.server";
import { defineLoader } from "~/server/platform/http/define-route.server";

export const meta: Route.MetaFunction = () => privatePageMeta("Application Messages", "Private Loans administration: applicants' messages, unread first.");

/** Staff past the second factor who may read applications (staff.read, as /admin); the read is audited ('conversations.list'). */
export const loader = defineLoader({
  guard: staffWith("staff.read"),
  handle: async ({ request, context }: Route.LoaderArgs, staff) => {
    const { page } = parsePageRequest(new URL(request.url).searchParams);
    return listStaffConversations(page ?? 1, callerOf(staff, request, context));
  },
});

export const ErrorBoundary = adminLoadErrorBoundary("conversations");

export default function AdminConversationsRoute({ loaderData }: Route.ComponentProps) {
  return <ApplicationMessagesPage data={loaderData} />;
}
