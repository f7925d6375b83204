import { ChevronLeft, ChevronRight, ChevronsLeft, ChevronsRight } from "lucide-react";
import { Link } from "react-router";
import { buttonVariants } from "~/components/ui/button";
import type { PageCursors, PageTarget } from "~/domain/paging";
import { cn } from "~/utils/cn";

type Direction = "first" | "prev" | "next" | "last";

const ICONS = { first: ChevronsLeft, prev: ChevronLeft, next: ChevronRight, last: ChevronsRight } as const;
const TEXTS = { first: "First", prev: "Previous", next: "Next", last: "Last" } as const;

/**
 * Previous / "Page n of m" / Next for every paginated admin list; nothing when everything fits on one
 * page. `hrefFor(target)` builds each link's search string. A keyset list (decision 0050: `cursors`
 * given) adds First and Last and moves by the tokens of the rows either side, never by a deep page
 * number; a numbered list (clients, testimonials, a loan search) moves by page number. An unavailable
 * direction is shown, disabled, so the layout does not jump.
 */
export function Pagination({
  page,
  pageCount,
  hrefFor,
  cursors = null,
  label = "Pagination",
}: {
  page: number;
  pageCount: number;
  hrefFor: (target: PageTarget) => string;
  cursors?: PageCursors | null;
  label?: string;
}) {
  if (pageCount <= 1 && !cursors?.prev && !cursors?.next) return null;
  const targets: Record<Direction, PageTarget | null> = cursors
    ? {
        first: cursors.prev ? { page: 1 } : null,
        prev: cursors.prev ? { before: cursors.prev } : null,
        next: cursors.next ? { after: cursors.next } : null,
        last: cursors.next ? { last: true } : null,
      }
    : { first: null, prev: page > 1 ? { page: page - 1 } : null, next: page < pageCount ? { page: page + 1 } : null, last: null };
  const item = (direction: Direction) => {
    const Icon = ICONS[direction];
    const leading = direction === "first" || direction === "prev";
    const content = (
      <>
        {leading ? <Icon aria-hidden="true" /> : null}
        {TEXTS[direction]}
        <span className="sr-only"> page</span>
        {leading ? null : <Icon aria-hidden="true" />}
      </>
    );
    const className = buttonVariants({ variant: "outline", size: "sm" });
    const target = targets[direction];
    if (!target) {
      return (
        <span aria-disabled="true" className={cn(className, "pointer-events-none opacity-60")}>
          {content}
        </span>
      );
    }
    return (
      <Link to={hrefFor(target)} className={className} preventScrollReset rel={direction === "prev" || direction === "next" ? direction : undefined}>
        {content}
      </Link>
    );
  };
  return (
    <nav aria-label={label} className="mt-4 flex flex-wrap items-center justify-between gap-2">
      <div className="flex gap-2">
        {cursors ? item("first") : null}
        {item("prev")}
      </div>
      <p className="text-sm text-muted-foreground">
        Page {page} of {pageCount}
      </p>
      <div className="flex gap-2">
        {item("next")}
        {cursors ? item("last") : null}
      </div>
    </nav>
  );
}

/** A numbered list's page from a pagination target (it is only ever handed `{ page }`). */
export function targetPage(target: PageTarget): number {
  return "page" in target ? target.page : 1;
}
