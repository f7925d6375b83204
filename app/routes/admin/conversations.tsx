import { ApplicationMessagesPage } from "~/components/admin/conversations/application-messages-page";
import { adminLoadErrorBoundary } from "~/components/admin/page-load-error";
import { pageMeta } from "~/content/site";
import { parsePageRequest } from "~/domain/paging";
import { requireStaff } from "~/server/accounts/session.server";
import { listStaffConversations } from "~/server/conversation/staff-conversations.server";
import { requestInfo } from "~/server/platform/http/request-info.server";
import type { Route } from "./+types/conversations";

export const meta: Route.MetaFunction = () => [...pageMeta("Application Messages", "Private Loans administration: applicants' messages, unread first."), { name: "robots", content: "noindex" }];

/** Staff past the second factor who may read applications (staff.read, as /admin); the read is audited ('conversations.list'). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = await requireStaff(request, "staff.read");
  const { page } = parsePageRequest(new URL(request.url).searchParams);
  return listStaffConversations(page ?? 1, staff, requestInfo(request, context));
}

export const ErrorBoundary = adminLoadErrorBoundary("conversations");

export default function AdminConversationsRoute({ loaderData }: Route.ComponentProps) {
  return <ApplicationMessagesPage data={loaderData} />;
}
