import { data } from "react-router";
import { LoanPage } from "~/components/admin/loans/loan-page";
import { loanLoadErrorBoundary } from "~/components/admin/loans/load-error";
import { pageMeta } from "~/content/site";
import { requireStaff } from "~/server/accounts/session.server";
import { respond } from "~/server/platform/http/action-answer.server";
import { assertSameOrigin } from "~/server/platform/http/origin.server";
import { requestInfo } from "~/server/platform/http/request-info.server";
import { loadStaffLoan, loanPageAction, parseLoanId } from "~/server/loans/staff-loans.server";
import type { Route } from "./+types/loan";

export const meta: Route.MetaFunction = () => [...pageMeta("Loan", "Private Loans administration: one loan's schedule and ledger."), { name: "robots", content: "noindex" }];

/** Admins with a verified second factor only; an id that names no loan is a 404; the read is audited ('loan.view'). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const admin = await requireStaff(request, "staff.read");
  const id = parseLoanId(params.id);
  if (!id) throw data(null, { status: 404, statusText: "Not Found" });
  const loan = await loadStaffLoan(id, admin, requestInfo(request, context));
  if (!loan) throw data(null, { status: 404, statusText: "Not Found" });
  return loan;
}

/** record-payment | reverse-payment (app/server/loans/staff-loans.server.ts), validated, under the loan's row lock. */
export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request);
  const admin = await requireStaff(request, "servicing.manage");
  return respond(await loanPageAction(request, params.id, admin, requestInfo(request, context)));
}

export const ErrorBoundary = loanLoadErrorBoundary("loan");

export default function AdminLoanRoute({ loaderData }: Route.ComponentProps) {
  return <LoanPage data={loaderData} />;
}
