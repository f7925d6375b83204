import { LoanPage } from "~/components/admin/loans/loan-page";
import { loanLoadErrorBoundary } from "~/components/admin/loans/load-error";
import { privatePageMeta } from "~/content/private-page-meta";
import { respond } from "~/server/platform/http/action-answer.server";
import { callerOf } from "~/server/platform/http/request-info.server";
import { chargeOffAndProtections, loadStaffLoan, loanCollectionsPanel, loanPageAction, parseLoanId, staffHardshipPanel } from "~/server/loans/index.server";
import type { Route } from "./+types/loan";
import { orNotFound } from "./or-not-found";
import { staffWith } from "~/server/accounts/index.server";
import { defineAction, defineLoader } from "~/server/platform/http/define-route.server";

export const meta: Route.MetaFunction = () => privatePageMeta("Loan", "Private Loans administration: one loan's schedule and ledger.");

/** Admins with a verified second factor only; an id that names no loan is a 404; the read is audited ('loan.view'). */
export const loader = defineLoader({
  guard: staffWith("staff.read"),
  handle: async ({ request, context, params }: Route.LoaderArgs, admin) => {
    const id = orNotFound(parseLoanId(params.id));
    const loan = orNotFound(await loadStaffLoan(id, callerOf(admin, request, context)));
    return { ...loan, collections: await loanCollectionsPanel(id, admin.id), hardship: await staffHardshipPanel(id), ...(await chargeOffAndProtections(id, admin.id)) };
  },
});

/**
 * record-payment | reverse-payment, and the funding intents fund-loan | release-funds | cancel-funding |
 * settle-funding | return-funding | cancel-loan | record-fee-collected | accept-id-document, and
 * record-validation | resolve-flag | clear-restriction
 * (app/server/loans/staff-loans.server.ts), validated, under the loan's row lock.
 */
export const action = defineAction({
  guard: staffWith("servicing.manage"),
  handle: async ({ request, context, params }: Route.ActionArgs, admin) => respond(await loanPageAction(request, params.id, callerOf(admin, request, context))),
});

export const ErrorBoundary = loanLoadErrorBoundary("loan");

export default function AdminLoanRoute({ loaderData }: Route.ComponentProps) {
  return <LoanPage data={loaderData} />;
}
