import { DashboardPage } from "~/components/dashboard/dashboard-page";
import { pageMeta } from "~/content/site";
import { getDashboard } from "~/server/applications/index.server";
import { errorToast } from "~/domain/action-result";
import type { OwnDocumentLinkData } from "~/domain/views/dashboard";
import { createOwnDocumentLink } from "~/server/applications/index.server";
import { readActionForm, respond } from "~/server/platform/http/action-answer.server";
import { callerOf } from "~/server/platform/http/request-info.server";
import type { Route } from "./+types/dashboard";
import { signedIn } from "~/server/accounts/index.server";
import { defineAction, defineLoader } from "~/server/platform/http/define-route.server";
import { revalidateExcept } from "~/components/revalidate";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Dashboard", "Your Private Loans dashboard."),
  { name: "robots", content: "noindex" },
];

/** Signed-in users only (no session → /auth); only the user's own loans and applications. */
export const loader = defineLoader({
  guard: signedIn,
  handle: async (_args: Route.LoaderArgs, user) => getDashboard(user.id, user.name),
});

/** intent=document-link: a 60-second download link to one of the applicant's own documents (audited). */
export const action = defineAction({
  guard: signedIn,
  handle: async ({ request, context }: Route.ActionArgs, user) => {
    const nonce = crypto.randomUUID();
    const refuse = (message: string): OwnDocumentLinkData => ({ ok: false, nonce, toast: errorToast("Document Unavailable", message) });
    const read = await readActionForm(request, refuse, { unreadableAsEmpty: true });
    if (!read.ok) return respond(read.answer);
    if (read.form.get("intent") !== "document-link") return respond({ status: 400, body: refuse("Unknown action.") });
    const result = await createOwnDocumentLink(read.form.get("documentId"), callerOf(user, request, context));
    if (!result.ok) return respond({ status: result.status, body: refuse(result.message), headers: result.headers });
    return respond<OwnDocumentLinkData>({ status: 200, body: { ok: true, nonce, link: result.link } });
  },
});

/** A document link changes nothing on the page: do not reload the dashboard for it. */
export const shouldRevalidate = revalidateExcept("document-link");

export default function DashboardRoute({ loaderData }: Route.ComponentProps) {
  return <DashboardPage data={loaderData} />;
}
