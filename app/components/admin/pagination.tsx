import { ChevronLeft, ChevronRight } from "lucide-react";
import { Link } from "react-router";
import { buttonVariants } from "~/components/ui/button";
import { cn } from "~/utils/cn";

/**
 * Previous / "Page n of m" / Next for every paginated admin list (clients, documents, messages,
 * testimonials); nothing when everything fits on one page. `hrefFor(page)` builds each link's
 * search string; an unavailable direction is shown, disabled, so the layout does not jump.
 */
export function Pagination({
  page,
  pageCount,
  hrefFor,
  label = "Pagination",
}: {
  page: number;
  pageCount: number;
  hrefFor: (page: number) => string;
  label?: string;
}) {
  if (pageCount <= 1) return null;
  const item = (target: number, text: string, icon: "prev" | "next") => {
    const content = (
      <>
        {icon === "prev" ? <ChevronLeft aria-hidden="true" /> : null}
        {text}
        <span className="sr-only"> page</span>
        {icon === "next" ? <ChevronRight aria-hidden="true" /> : null}
      </>
    );
    const className = buttonVariants({ variant: "outline", size: "sm" });
    if (target < 1 || target > pageCount) {
      return (
        <span aria-disabled="true" className={cn(className, "pointer-events-none opacity-60")}>
          {content}
        </span>
      );
    }
    return (
      <Link to={hrefFor(target)} className={className} preventScrollReset rel={icon === "prev" ? "prev" : "next"}>
        {content}
      </Link>
    );
  };
  return (
    <nav aria-label={label} className="mt-4 flex items-center justify-between gap-2">
      {item(page - 1, "Previous", "prev")}
      <p className="text-sm text-muted-foreground">
        Page {page} of {pageCount}
      </p>
      {item(page + 1, "Next", "next")}
    </nav>
  );
}
