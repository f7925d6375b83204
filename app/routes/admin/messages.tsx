import { data, type ShouldRevalidateFunctionArgs } from "react-router";
import { MessagesInboxPage } from "~/components/admin/moderation/messages-inbox-page";
import type { AdminActionData } from "~/components/admin/moderation/use-action-toast";
import { pageMeta } from "~/content/site";
import { listContactMessages, parseMessageView, setContactMessageStatus } from "~/server/admin/messages.server";
import { parsePageNumber } from "~/server/admin/moderation.server";
import { requireAdmin } from "~/server/auth/session.server";
import { assertSameOrigin } from "~/server/http/origin.server";
import { readForm, SMALL_FORM_MAX_BYTES } from "~/server/http/read-body.server";
import type { Route } from "./+types/messages";
import { requestInfo } from "~/server/http/request-info.server";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Contact Messages", "Private Loans administration: contact messages."),
  { name: "robots", content: "noindex" },
];

/** Admins only; each page read writes a 'contact.list' audit row (client data access). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  return listContactMessages(
    { view: parseMessageView(params.get("view")), page: parsePageNumber(params.get("page")) },
    admin,
    requestInfo(request, context),
  );
}

/** Mark one message read or archived ({ id, status }, validated by the server module). */
export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const admin = await requireAdmin(request);
  const read = await readForm(request, SMALL_FORM_MAX_BYTES);
  if (!read.ok && read.status === 413) {
    return data<AdminActionData>({ ok: false, title: "Update Failed", description: read.message, at: Date.now() }, { status: 413 });
  }
  const form = read.ok ? read.value : null;
  const result = await setContactMessageStatus({ id: form?.get("id"), status: form?.get("status") }, admin, requestInfo(request, context));
  const at = Date.now();
  if (!result.ok) return data<AdminActionData>({ ok: false, title: "Update Failed", description: result.message, at }, { status: 400 });
  return data<AdminActionData>({ ok: true, title: result.status === "archived" ? "Message Archived" : "Marked as Read", at });
}

export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod?.toUpperCase() === "POST" ? true : defaultShouldRevalidate;
}

export default function AdminMessagesPage({ loaderData, actionData }: Route.ComponentProps) {
  return <MessagesInboxPage data={loaderData} actionData={actionData} />;
}
