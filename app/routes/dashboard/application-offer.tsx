import { data } from "react-router";
import { ReviewAndSignPage } from "~/components/offer/review-and-sign-page";
import { NotFoundBoundary } from "~/components/not-found-boundary";
import { applicationReference } from "~/components/dashboard/format";
import { pageMeta } from "~/content/site";
import { callerOf } from "~/server/platform/http/request-info.server";
import { loadReviewAndSign, reviewAndSignAction } from "~/server/offers/index.server";
import { redirectWithToast } from "~/server/platform/http/toast.server";
import type { Route } from "./+types/application-offer";
import { signedIn } from "~/server/accounts/index.server";
import { defineAction, defineLoader } from "~/server/platform/http/define-route.server";
import { ownPageOr404 } from "~/server/platform/http/own-page.server";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  ...pageMeta(loaderData ? `Review and Sign · Application ${applicationReference(loaderData.applicationId)}` : "Review and Sign", "Your loan offer: E-SIGN consent, the loan agreement and your signature."),
  { name: "robots", content: "noindex" },
];

/**
 * Signed-in applicants only, and only their own application: another person's id, a malformed id and
 * staff get the 404 page. Shows the E-SIGN consent, then the agreement and the sign form.
 */
export const loader = defineLoader({
  guard: signedIn,
  handle: async ({ params }: Route.LoaderArgs, user) => {
    return ownPageOr404(await loadReviewAndSign(params.id, user));
  },
});

/** consent | withdraw-consent | sign (app/server/offers/review-and-sign.server.ts); a signature redirects to the application page. */
export const action = defineAction({
  guard: signedIn,
  handle: async ({ request, context, params }: Route.ActionArgs, user) => {
    const result = await reviewAndSignAction(request, params.id, callerOf(user, request, context));
    if ("redirect" in result) return redirectWithToast(result.redirect, result.toast, { request });
    return data(result.body, { status: result.status, headers: result.headers });
  },
});

export const ErrorBoundary = NotFoundBoundary;

export default function ApplicationOfferRoute({ loaderData, actionData }: Route.ComponentProps) {
  return <ReviewAndSignPage data={loaderData} actionData={actionData} />;
}
