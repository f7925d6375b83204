import { adminLoadErrorBoundary } from "~/components/admin/page-load-error";
import { DocumentsPage } from "~/components/admin/documents/documents-page";
import type { LinkActionData } from "~/components/admin/documents/types";
import { privatePageMeta } from "~/content/private-page-meta";
import { errorToast } from "~/domain/action-result";
import { parseUserId } from "~/server/staff/index.server";
import { parsePageRequest } from "~/domain/paging";
import { createDocumentLink, listDocuments } from "~/server/applications/index.server";
import { readActionForm, respond } from "~/server/platform/http/action-answer.server";
import type { Route } from "./+types/documents";
import { callerOf } from "~/server/platform/http/request-info.server";
import { staffWith } from "~/server/accounts/index.server";
import { defineAction, defineLoader } from "~/server/platform/http/define-route.server";
import { revalidateExcept } from "~/components/revalidate";

export const meta: Route.MetaFunction = () => privatePageMeta("Document Viewer", "Private Loans administration: document viewer.");

/** Admins with a verified second factor only; the list read is audited (document.list). */
export const loader = defineLoader({
  guard: staffWith("staff.read"),
  handle: async ({ request, context }: Route.LoaderArgs, admin) => {
    const url = new URL(request.url);
    return listDocuments({ ...parsePageRequest(url.searchParams), clientId: parseUserId(url.searchParams.get("client")) }, callerOf(admin, request, context));
  },
});

/** intent=link: a 60-second signed link for this admin to one document (audited as document.link). */
export const action = defineAction({
  guard: staffWith("sensitive.reveal"),
  handle: async ({ request, context }: Route.ActionArgs, admin) => {
    const nonce = crypto.randomUUID();
    const refuse = (title: string, message: string): LinkActionData => ({ ok: false, nonce, toast: errorToast(title, message) });
    const read = await readActionForm(request, (message) => refuse("Error", message), { unreadableAsEmpty: true });
    if (!read.ok) return respond(read.answer);
    const { form } = read;
    if (form.get("intent") !== "link") return respond({ status: 400, body: refuse("Error", "Unknown action.") });
    const result = await createDocumentLink({ documentId: form.get("documentId"), disposition: form.get("disposition") }, callerOf(admin, request, context));
    if (!result.ok) return respond({ status: result.status, body: refuse(result.title, result.message), headers: result.headers });
    return respond<LinkActionData>({ status: 200, body: { ok: true, nonce, link: result.link } });
  },
});

/** Generating a link changes nothing on the page: do not reload (and re-audit) the list for it. */
export const shouldRevalidate = revalidateExcept("link");

export default function AdminDocumentsRoute({ loaderData }: Route.ComponentProps) {
  return <DocumentsPage data={loaderData} />;
}

export const ErrorBoundary = adminLoadErrorBoundary("documents");
