import { data } from "react-router";
import { BorrowerLoanPageView } from "~/components/loans/borrower-loan-page";
import { NotFoundBoundary } from "~/components/not-found-boundary";
import { loanTypeLabel } from "~/domain/labels";
import { pageMeta } from "~/content/site";
import { callerOf } from "~/server/platform/http/request-info.server";
import { loadBorrowerLoan } from "~/server/loans/index.server";
import { borrowerHardship, borrowerLoanAction } from "~/server/loans/index.server";
import type { Route } from "./+types/loan";
import { signedIn } from "~/server/accounts/index.server";
import { defineAction, defineLoader } from "~/server/platform/http/define-route.server";
import { ownPageOr404 } from "~/server/platform/http/own-page.server";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  ...pageMeta(loaderData ? `Your ${loanTypeLabel(loaderData.loanType)}` : "Your Loan", "Your loan: next payment, balance, schedule, payment history, payoff quote and statements."),
  { name: "robots", content: "noindex" },
];

/**
 * Signed-in borrowers only, and only their own loan: another person's id, a malformed id and staff
 * get the 404 page. The figures come from the ledger replayed to today (app/domain/loan-servicing.ts).
 */
export const loader = defineLoader({
  guard: signedIn,
  handle: async ({ request, context, params }: Route.LoaderArgs, user) => {
    const page = await loadBorrowerLoan(params.id, callerOf(user, request, context));
    return ownPageOr404(page && { ...page, hardship: await borrowerHardship(params.id, user) });
  },
});

/** pay: Make a Payment (app/server/loans/borrower-payments.server.ts). */
export const action = defineAction({
  guard: signedIn,
  handle: async ({ request, context, params }: Route.ActionArgs, user) => {
    const result = await borrowerLoanAction(request, params.id, callerOf(user, request, context));
    return data(result.body, { status: result.status, headers: result.headers });
  },
});

export const ErrorBoundary = NotFoundBoundary;

export default function LoanRoute({ loaderData, actionData }: Route.ComponentProps) {
  return <BorrowerLoanPageView data={loaderData} actionData={actionData} />;
}
