import { LoansPage } from "~/components/admin/loans/loans-page";
import { loanLoadErrorBoundary } from "~/components/admin/loans/load-error";
import { privatePageMeta } from "~/content/private-page-meta";
import { callerOf } from "~/server/platform/http/request-info.server";
import { listLoans, parseLoansUrl } from "~/server/loans/index.server";
import type { Route } from "./+types/loans";
import { staffWith } from "~/server/accounts/index.server";
import { defineLoader } from "~/server/platform/http/define-route.server";

export const meta: Route.MetaFunction = () => privatePageMeta("Loans", "Private Loans administration: the loans being serviced.");

/** Admins with a verified second factor only; the read is audited ('loans.list'). ?status=current|late|paid_in_full&q=&page= */
export const loader = defineLoader({
  guard: staffWith("staff.read"),
  handle: async ({ request, context }: Route.LoaderArgs, admin) => {
    const list = await listLoans(parseLoansUrl(new URL(request.url)), callerOf(admin, request, context));
    return { list };
  },
});

export default function AdminLoansRoute({ loaderData }: Route.ComponentProps) {
  return <LoansPage list={loaderData.list} />;
}

export const ErrorBoundary = loanLoadErrorBoundary("loans");
