import { Link } from "react-router";
import { awaitingListHref, REVIEW_TABS, reviewListHref, type ReviewTab } from "~/domain/validation/review";
import type { ApplicationCounts } from "~/domain/views/admin-applications";
import { cn } from "~/utils/cn";

export const TAB_LABELS: Record<ReviewTab, string> = { pending: "Pending", under_review: "Under Review", approved: "Approved", denied: "Denied" };
export const AWAITING_LABEL = "Awaiting Confirmation";

const TAB_CLASS = cn(
  "flex min-h-9 w-full items-center justify-center rounded-md px-1 py-1 text-center text-sm leading-tight font-semibold transition-colors sm:px-2",
  "focus-visible:outline-3 focus-visible:outline-offset-1",
);

/**
 * 'Pending (n)', 'Under Review (n)', 'Approved (n)', 'Denied (n)' and 'Awaiting Confirmation (n)' (open
 * applications whose approval waits for a second staff member): links driven by the URL (?status=…),
 * so a tab can be bookmarked, reloaded and opened without JavaScript; the current one carries
 * aria-current. Two columns on a phone (Awaiting Confirmation across both), one row from the small
 * breakpoint.
 */
export function StatusTabs({
  current,
  counts,
  mine = false,
  awaiting = false,
  awaitingCount,
}: {
  current: ReviewTab;
  counts: ApplicationCounts;
  /** My Queue is kept across tabs. */
  mine?: boolean;
  /** The Awaiting Confirmation list is the current one. */
  awaiting?: boolean;
  awaitingCount: number;
}) {
  return (
    <nav aria-label="Application status">
      <ul className="grid w-full grid-cols-2 gap-1 rounded-lg bg-muted p-1 sm:grid-cols-5">
        {REVIEW_TABS.map((tab) => {
          const active = tab === current && !awaiting;
          return (
            <li key={tab} className="min-w-0">
              <Link
                to={reviewListHref(tab, 1, mine)}
                preventScrollReset
                aria-current={active ? "page" : undefined}
                data-tab={tab}
                className={cn(TAB_CLASS, active ? "bg-background text-primary shadow-sm" : "text-slate-700 hover:text-primary")}
              >
                {TAB_LABELS[tab]} ({counts[tab]})
              </Link>
            </li>
          );
        })}
        <li className="col-span-2 min-w-0 sm:col-span-1">
          <Link
            to={awaitingListHref()}
            preventScrollReset
            aria-current={awaiting ? "page" : undefined}
            data-tab="awaiting_confirmation"
            className={cn(TAB_CLASS, awaiting ? "bg-background text-primary shadow-sm" : "text-slate-700 hover:text-primary")}
          >
            {AWAITING_LABEL} ({awaitingCount})
          </Link>
        </li>
      </ul>
    </nav>
  );
}
