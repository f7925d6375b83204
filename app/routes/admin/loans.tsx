import { LoansPage } from "~/components/admin/loans/loans-page";
import { loanLoadErrorBoundary } from "~/components/admin/loans/load-error";
import { pageMeta } from "~/content/site";
import { requireStaff } from "~/server/accounts/session.server";
import { requestInfo } from "~/server/platform/http/request-info.server";
import { listLoans, parseLoansUrl } from "~/server/loans/staff-loans.server";
import type { Route } from "./+types/loans";

export const meta: Route.MetaFunction = () => [...pageMeta("Loans", "Private Loans administration: the loans being serviced."), { name: "robots", content: "noindex" }];

/** Admins with a verified second factor only; the read is audited ('loans.list'). ?status=current|late|paid_in_full&q=&page= */
export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requireStaff(request, "staff.read");
  const list = await listLoans(parseLoansUrl(new URL(request.url)), admin, requestInfo(request, context));
  return { list };
}

export default function AdminLoansRoute({ loaderData }: Route.ComponentProps) {
  return <LoansPage list={loaderData.list} />;
}

export const ErrorBoundary = loanLoadErrorBoundary("loans");
