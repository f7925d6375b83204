import { data, isRouteErrorResponse } from "react-router";
import { ReviewAndSignPage } from "~/components/offer/review-and-sign-page";
import { NotFoundPage } from "~/components/error-page";
import { applicationReference } from "~/components/dashboard/format";
import { pageMeta } from "~/content/site";
import { requireUser } from "~/server/accounts/session.server";
import { assertSameOrigin } from "~/server/platform/http/origin.server";
import { requestInfo } from "~/server/platform/http/request-info.server";
import { loadReviewAndSign, reviewAndSignAction } from "~/server/offers/review-and-sign.server";
import { redirectWithToast } from "~/server/platform/http/toast.server";
import type { Route } from "./+types/application-offer";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  ...pageMeta(loaderData ? `Review and Sign · Application ${applicationReference(loaderData.applicationId)}` : "Review and Sign", "Your loan offer: E-SIGN consent, the loan agreement and your signature."),
  { name: "robots", content: "noindex" },
];

/**
 * Signed-in applicants only, and only their own application: another person's id, a malformed id and
 * staff get the 404 page. Shows the E-SIGN consent, then the agreement and the sign form.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const page = await loadReviewAndSign(params.id, user);
  if (!page) throw data(null, { status: 404, statusText: "Not Found" });
  return data(page, { headers: { "Cache-Control": "no-store, private" } });
}

/** consent | withdraw-consent | sign (app/server/offers/review-and-sign.server.ts); a signature redirects to the application page. */
export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request);
  const user = await requireUser(request);
  const result = await reviewAndSignAction(request, params.id, user, requestInfo(request, context));
  if ("redirect" in result) return redirectWithToast(result.redirect, result.toast, { request });
  return data(result.body, { status: result.status, headers: result.headers });
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  throw error;
}

export default function ApplicationOfferRoute({ loaderData, actionData }: Route.ComponentProps) {
  return <ReviewAndSignPage data={loaderData} actionData={actionData} />;
}
