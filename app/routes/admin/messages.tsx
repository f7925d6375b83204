import { data } from "react-router";
import { MessagesInboxPage } from "~/components/admin/moderation/messages-inbox-page";
import { stampedResult } from "~/domain/action-result";
import { privatePageMeta } from "~/content/private-page-meta";
import { listContactMessages, parseMessageView, setContactMessageStatus } from "~/server/public-site/index.server";
import { parsePageRequest } from "~/domain/paging";
import { readActionForm, respond } from "~/server/platform/http/action-answer.server";
import type { Route } from "./+types/messages";
import { callerOf } from "~/server/platform/http/request-info.server";
import { adminLoadErrorBoundary } from "~/components/admin/page-load-error";
import { staffWith } from "~/server/accounts/index.server";
import { defineAction, defineLoader } from "~/server/platform/http/define-route.server";

export { revalidateAfterPost as shouldRevalidate } from "~/components/admin/moderation/revalidate";

export const meta: Route.MetaFunction = () => privatePageMeta("Contact Inbox", "Private Loans administration: contact-form messages.");

/** Admins only; each page read writes a 'contact.list' audit row (client data access). */
export const loader = defineLoader({
  guard: staffWith("staff.read"),
  handle: async ({ request, context }: Route.LoaderArgs, admin) => {
    const params = new URL(request.url).searchParams;
    return listContactMessages({ view: parseMessageView(params.get("view")), ...parsePageRequest(params) }, callerOf(admin, request, context));
  },
});

/** Mark one message read or archived ({ id, status }, validated by the server module). */
export const action = defineAction({
  guard: staffWith("content.moderate"),
  handle: async ({ request, context }: Route.ActionArgs, admin) => {
    const read = await readActionForm(request, (message) => stampedResult(false, "Update Failed", message), { unreadableAsEmpty: true });
    if (!read.ok) return respond(read.answer);
    const result = await setContactMessageStatus({ id: read.form.get("id"), status: read.form.get("status") }, callerOf(admin, request, context));
    if (!result.ok) return data(stampedResult(false, "Update Failed", result.message), { status: 400 });
    return data(stampedResult(true, result.status === "archived" ? "Message Archived" : "Marked as Read"));
  },
});

export default function AdminMessagesPage({ loaderData, actionData }: Route.ComponentProps) {
  return <MessagesInboxPage data={loaderData} actionData={actionData} />;
}

export const ErrorBoundary = adminLoadErrorBoundary("messages");
