import type { ShouldRevalidateFunctionArgs } from "react-router";
import { adminLoadErrorBoundary } from "~/components/admin/page-load-error";
import { DocumentsPage } from "~/components/admin/documents/documents-page";
import type { LinkActionData } from "~/components/admin/documents/types";
import { pageMeta } from "~/content/site";
import { errorToast } from "~/domain/action-result";
import { parseUserId } from "~/server/staff/clients.server";
import { parsePageRequest } from "~/domain/paging";
import { createDocumentLink, listDocuments } from "~/server/applications/documents.server";
import { requireStaff } from "~/server/accounts/session.server";
import { assertSameOrigin } from "~/server/platform/http/origin.server";
import { readActionForm, respond } from "~/server/platform/http/action-answer.server";
import type { Route } from "./+types/documents";
import { requestInfo } from "~/server/platform/http/request-info.server";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Document Viewer", "Private Loans administration: document viewer."),
  { name: "robots", content: "noindex" },
];

/** Admins with a verified second factor only; the list read is audited (document.list). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requireStaff(request, "staff.read");
  const url = new URL(request.url);
  const info = requestInfo(request, context);
  return listDocuments({ ...parsePageRequest(url.searchParams), clientId: parseUserId(url.searchParams.get("client")) }, admin, info);
}

/** intent=link: a 60-second signed link for this admin to one document (audited as document.link). */
export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const admin = await requireStaff(request, "sensitive.reveal");
  const nonce = crypto.randomUUID();
  const refuse = (title: string, message: string): LinkActionData => ({ ok: false, nonce, toast: errorToast(title, message) });
  const read = await readActionForm(request, (message) => refuse("Error", message), { unreadableAsEmpty: true });
  if (!read.ok) return respond(read.answer);
  const { form } = read;
  if (form.get("intent") !== "link") return respond({ status: 400, body: refuse("Error", "Unknown action.") });
  const info = requestInfo(request, context);
  const result = await createDocumentLink({ documentId: form.get("documentId"), disposition: form.get("disposition") }, admin, info);
  if (!result.ok) return respond({ status: result.status, body: refuse(result.title, result.message), headers: result.headers });
  return respond<LinkActionData>({ status: 200, body: { ok: true, nonce, link: result.link } });
}

/** Generating a link changes nothing on the page: do not reload (and re-audit) the list for it. */
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formData?.get("intent") === "link") return false;
  return defaultShouldRevalidate;
}

export default function AdminDocumentsRoute({ loaderData }: Route.ComponentProps) {
  return <DocumentsPage data={loaderData} />;
}

export const ErrorBoundary = adminLoadErrorBoundary("documents");
