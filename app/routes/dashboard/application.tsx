import { ApplicantApplicationView } from "~/components/dashboard/application-page";
import { applicationReference } from "~/components/dashboard/format";
import { pageMeta } from "~/content/site";
import { getApplicantApplication } from "~/server/applications/index.server";
import type { Route } from "./+types/application";
import { signedIn } from "~/server/accounts/index.server";
import { defineLoader } from "~/server/platform/http/define-route.server";
import { revalidateExcept } from "~/components/revalidate";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  ...pageMeta(loaderData ? `Application ${applicationReference(loaderData.application.id)}` : "Application", "Your loan application: its status, what we need and messages."),
  { name: "robots", content: "noindex" },
];

/**
 * Signed-in applicants only (no session → /auth), and only their own application: another person's
 * id, a malformed id and staff all get the 404 page, so the answer never says whether it exists.
 */
export const loader = defineLoader({
  guard: signedIn,
  handle: async ({ params }: Route.LoaderArgs, user) => {
    const page = await getApplicantApplication(params.id, user);
    if (!page) throw new Response("Not Found", { status: 404, statusText: "Not Found" });
    return page;
  },
});

/** A document link (asked of /dashboard's action) changes nothing on the page: no reload for it. */
export const shouldRevalidate = revalidateExcept("document-link");

export default function ApplicantApplicationRoute({ loaderData }: Route.ComponentProps) {
  return <ApplicantApplicationView data={loaderData} />;
}
