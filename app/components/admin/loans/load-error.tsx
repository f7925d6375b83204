import { isRouteErrorResponse } from "react-router";
import { PageLoadError } from "~/components/admin/page-load-error";
import { NotFoundPage } from "~/components/error-page";

/** The loan pages' words for a failed load (kept here, beside the pages, rather than in the shared list). */
const LOADS = {
  loans: { title: "Loans", heading: "Error Loading Loans", fallback: "The loans could not be loaded. Please try again." },
  loan: { title: "Loan", heading: "Error Loading Loan", fallback: "The loan could not be loaded. Please try again." },
  collections: { title: "Collections", heading: "Error Loading Collections", fallback: "The collections queue could not be loaded. Please try again." },
} as const;

/** An ErrorBoundary for /admin/loans and /admin/loans/:id: a 404 is the Not Found page, other refusals are named by status. */
export function loanLoadErrorBoundary(page: keyof typeof LOADS) {
  return function LoanLoadErrorBoundary({ error }: { error: unknown }) {
    if (page === "loan" && isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
    const detail = isRouteErrorResponse(error) && error.status < 500 ? `${error.status} ${error.statusText}` : LOADS[page].fallback;
    return <PageLoadError page={LOADS[page]} detail={detail} />;
  };
}
