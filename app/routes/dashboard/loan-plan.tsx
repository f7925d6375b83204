import { PlanReviewPage } from "~/components/loans/plan-review-page";
import { NotFoundBoundary } from "~/components/not-found-boundary";
import { pageMeta } from "~/content/site";
import { loadPlanReview } from "~/server/loans/index.server";
import type { Route } from "./+types/loan-plan";
import { signedIn } from "~/server/accounts/index.server";
import { defineLoader } from "~/server/platform/http/define-route.server";
import { ownPageOr404 } from "~/server/platform/http/own-page.server";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Review Your Plan", "A plan to help with your payments: the new Payment Schedule, its effect on the total cost, and your signature."),
  { name: "robots", content: "noindex" },
];

/**
 * Signed-in borrowers only, and only their own loan: another person's id, a malformed id and staff get
 * the 404 page. The plan offered with its schedules recomputed now, as signing would; Sign Plan and
 * Decline Plan post to /dashboard/loans/:id/hardship.
 */
export const loader = defineLoader({
  guard: signedIn,
  handle: async ({ params }: Route.LoaderArgs, user) => ownPageOr404(await loadPlanReview(params.id, user)),
});

export const ErrorBoundary = NotFoundBoundary;

export default function LoanPlanRoute({ loaderData }: Route.ComponentProps) {
  return <PlanReviewPage data={loaderData} />;
}
