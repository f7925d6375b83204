import { Link } from "react-router";
import { reviewListHref, type ReviewTab } from "~/domain/validation/review";
import { cn } from "~/utils/cn";

/**
 * My Queue: all applications, or only those assigned to me. Links driven by the URL
 * (?queue=mine, kept across the status tabs and pages), so the filter can be bookmarked; the current
 * one carries aria-current.
 */
export function MyQueueToggle({ tab, mine }: { tab: ReviewTab; mine: boolean }) {
  const item = (active: boolean) =>
    cn(
      "inline-flex min-h-9 items-center rounded-md px-3 py-1 text-sm font-semibold transition-colors focus-visible:outline-3 focus-visible:outline-offset-1",
      active ? "bg-navy-900 text-white" : "border border-border text-slate-800 hover:text-primary",
    );
  return (
    <nav aria-label="Queue">
      <ul className="flex flex-wrap gap-2">
        <li>
          <Link to={reviewListHref(tab)} preventScrollReset aria-current={mine ? undefined : "page"} className={item(!mine)} data-queue="all">
            All Applications
          </Link>
        </li>
        <li>
          <Link to={reviewListHref(tab, 1, true)} preventScrollReset aria-current={mine ? "page" : undefined} className={item(mine)} data-queue="mine">
            My Queue
          </Link>
        </li>
      </ul>
    </nav>
  );
}
