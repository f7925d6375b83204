import { data, isRouteErrorResponse } from "react-router";
import { BorrowerLoanPageView } from "~/components/loans/borrower-loan-page";
import { NotFoundPage } from "~/components/error-page";
import { loanTypeLabel } from "~/domain/labels";
import { pageMeta } from "~/content/site";
import { requireUser } from "~/server/accounts/session.server";
import { assertSameOrigin } from "~/server/platform/http/origin.server";
import { requestInfo } from "~/server/platform/http/request-info.server";
import { loadBorrowerLoan } from "~/server/loans/borrower-loan.server";
import { borrowerLoanAction } from "~/server/loans/borrower-payments.server";
import type { Route } from "./+types/loan";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  ...pageMeta(loaderData ? `Your ${loanTypeLabel(loaderData.loanType)}` : "Your Loan", "Your loan: next payment, balance, schedule, payment history, payoff quote and statements."),
  { name: "robots", content: "noindex" },
];

/**
 * Signed-in borrowers only, and only their own loan: another person's id, a malformed id and staff
 * get the 404 page. The figures come from the ledger replayed to today (app/domain/loan-servicing.ts).
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const page = await loadBorrowerLoan(params.id, user, requestInfo(request, context));
  if (!page) throw data(null, { status: 404, statusText: "Not Found" });
  return data(page, { headers: { "Cache-Control": "no-store, private" } });
}

/** pay: Make a Payment (app/server/loans/borrower-payments.server.ts). */
export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request);
  const user = await requireUser(request);
  const result = await borrowerLoanAction(request, params.id, user, requestInfo(request, context));
  return data(result.body, { status: result.status, headers: result.headers });
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  throw error;
}

export default function LoanRoute({ loaderData, actionData }: Route.ComponentProps) {
  return <BorrowerLoanPageView data={loaderData} actionData={actionData} />;
}
