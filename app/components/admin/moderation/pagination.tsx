import { ChevronLeft, ChevronRight } from "lucide-react";
import { Link } from "react-router";
import { buttonVariants } from "~/components/ui/button";
import { cn } from "~/utils/cn";

/** Previous / Next links with "Page n of m"; renders nothing when everything fits on one page. */
export function Pagination({ page, pageCount, href, label = "Pagination" }: { page: number; pageCount: number; href: (page: number) => string; label?: string }) {
  if (pageCount <= 1) return null;
  const linkClass = buttonVariants({ variant: "outline", size: "sm" });
  const disabledClass = cn(linkClass, "pointer-events-none opacity-50");
  return (
    <nav aria-label={label} className="mt-6 flex items-center justify-between gap-3">
      {page > 1 ? (
        <Link to={href(page - 1)} className={linkClass} rel="prev">
          <ChevronLeft aria-hidden="true" /> Previous
        </Link>
      ) : (
        <span className={disabledClass} aria-hidden="true">
          <ChevronLeft aria-hidden="true" /> Previous
        </span>
      )}
      <p className="text-sm text-slate-700" aria-current="page">
        Page {page} of {pageCount}
      </p>
      {page < pageCount ? (
        <Link to={href(page + 1)} className={linkClass} rel="next">
          Next <ChevronRight aria-hidden="true" />
        </Link>
      ) : (
        <span className={disabledClass} aria-hidden="true">
          Next <ChevronRight aria-hidden="true" />
        </span>
      )}
    </nav>
  );
}
