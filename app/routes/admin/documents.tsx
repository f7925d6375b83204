import { data, isRouteErrorResponse, type ShouldRevalidateFunctionArgs } from "react-router";
import { AdminShell } from "~/components/admin/admin-shell";
import { DocumentsPage } from "~/components/admin/documents/documents-page";
import type { LinkActionData } from "~/components/admin/documents/types";
import { pageMeta } from "~/content/site";
import { parsePage, parseUserId } from "~/server/admin/clients.server";
import { createDocumentLink, DOCUMENT_LINK_THROTTLE, listDocuments } from "~/server/admin/documents.server";
import { requireAdmin } from "~/server/auth/session.server";
import { assertSameOrigin } from "~/server/http/origin.server";
import { readForm, SMALL_FORM_MAX_BYTES } from "~/server/http/read-body.server";
import { checkThrottles } from "~/server/security/throttle.server";
import type { Route } from "./+types/documents";
import { requestInfo } from "~/server/http/request-info.server";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Document Viewer", "Private Loans administration: document viewer."),
  { name: "robots", content: "noindex" },
];

/** Admins with a verified second factor only; the list read is audited (document.list). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  const url = new URL(request.url);
  const info = requestInfo(request, context);
  return listDocuments({ page: parsePage(url.searchParams.get("page")), clientId: parseUserId(url.searchParams.get("client")) }, admin, info);
}

/** intent=link: a 60-second signed link for this admin to one document (audited as document.link). */
export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const admin = await requireAdmin(request);
  const nonce = crypto.randomUUID();
  const read = await readForm(request, SMALL_FORM_MAX_BYTES);
  if (!read.ok && read.status === 413) return data<LinkActionData>({ ok: false, nonce, title: "Error", message: read.message }, { status: 413 });
  // An unreadable body (wrong content type, broken multipart) is bad input, not a server error.
  const form = read.ok ? read.value : null;
  if (form?.get("intent") !== "link") {
    return data<LinkActionData>({ ok: false, nonce, title: "Error", message: "Unknown action." }, { status: 400 });
  }
  const throttled = await checkThrottles([[`document-link:admin:${admin.id}`, DOCUMENT_LINK_THROTTLE]]);
  if (!throttled.ok) return data<LinkActionData>({ ok: false, nonce, title: "Access Error", message: throttled.message }, { status: 429 });
  const info = requestInfo(request, context);
  const result = await createDocumentLink({ documentId: form.get("documentId"), disposition: form.get("disposition") }, admin, info);
  if (!result.ok) return data<LinkActionData>({ ok: false, nonce, title: result.title, message: result.message }, { status: result.status });
  return data<LinkActionData>({ ok: true, nonce, link: result.link });
}

/** Generating a link changes nothing on the page: do not reload (and re-audit) the list for it. */
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formData?.get("intent") === "link") return false;
  return defaultShouldRevalidate;
}

export default function AdminDocumentsRoute({ loaderData }: Route.ComponentProps) {
  return <DocumentsPage data={loaderData} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : "The documents could not be loaded. Please try again.";
  return (
    <AdminShell title="Document Viewer">
      <div role="alert" className="rounded-xl border border-destructive/40 bg-red-50 p-5">
        <h2 className="font-semibold text-destructive">Error Loading Documents</h2>
        <p className="mt-1 text-sm text-slate-800">{detail}</p>
      </div>
    </AdminShell>
  );
}
