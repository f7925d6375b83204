import { UserCheck } from "lucide-react";
import { Link, useFetcher } from "react-router";
import { useActionToast } from "~/components/action-toast";
import { AdminShell } from "~/components/admin/admin-shell";
import { Badge } from "~/components/ui/badge";
import { Card } from "~/components/ui/card";
import { PendingButton } from "~/components/ui/pending-button";
import { ScrollingTable, TableHead } from "~/components/ui/table";
import { useDisplayTimeZone } from "~/components/dashboard/format";
import { formatDateTime, formatDay } from "~/domain/formats";
import { formatMoney } from "~/domain/money";
import { COLLECTIONS_FILTER_LABELS, COLLECTIONS_FILTERS, type CollectionsActionData, type CollectionsFilter } from "~/domain/validation/collections";
import type { CollectionsQueue, CollectionsQueueRow, NextAction } from "~/domain/views/collections";
import { cn } from "~/utils/cn";

/** The query string of /admin/collections for a filter and a page (defaults left out). */
function queueSearch(filter: CollectionsFilter, after: string | null): string {
  const params = new URLSearchParams();
  if (filter !== "all") params.set("show", filter);
  if (after) params.set("after", after);
  const s = params.toString();
  return s ? `?${s}` : "";
}

const COLUMNS = [
  "Borrower",
  { label: "Days Past Due", className: "text-right" },
  { label: "Amount Due", className: "text-right" },
  "Last Contact",
  "Next Action",
  "Assigned To",
] as const;

export function nextActionText(next: NextAction | null): string {
  if (!next) return "—";
  if (next.kind === "promise") return `Promise: ${formatMoney(next.amountCents)} by ${formatDay(next.on)}`;
  return next.on ? `${next.text} (${formatDay(next.on)})` : next.text;
}

/**
 * /admin/collections: active loans 1 or more days past due, oldest first, with the amount due, the
 * last contact and the next action, who works each (Assign to Me) and the markers Contact Stopped,
 * Broken Promise and Proposed for Charge-Off. Filters: All, Assigned to Me, Unassigned.
 */
export function CollectionsPage({ queue }: { queue: CollectionsQueue }) {
  const timeZone = useDisplayTimeZone();
  return (
    <AdminShell title="Collections" description="Late loans to work, the oldest due date first: contact the borrower, record promises, assign a loan to yourself.">
      <Card className="p-4 sm:p-5">
        <nav aria-label="Collections filter">
          <ul className="flex flex-wrap gap-2">
            {COLLECTIONS_FILTERS.map((filter) => {
              const current = filter === queue.filter;
              return (
                <li key={filter}>
                  <Link
                    to={queueSearch(filter, null) || "/admin/collections"}
                    aria-current={current ? "page" : undefined}
                    data-testid={`collections-filter-${filter}`}
                    className={cn(
                      "inline-block rounded-full border px-3 py-1 text-sm font-medium focus-visible:outline-3 focus-visible:outline-offset-1",
                      current ? "border-primary bg-primary text-primary-foreground" : "border-border text-slate-800 hover:border-primary hover:text-primary",
                    )}
                  >
                    {COLLECTIONS_FILTER_LABELS[filter]}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
        <p className="mt-3 text-sm text-muted-foreground" role="status" data-testid="collections-count">
          {queue.rows.length === 0 ? "No late loans here." : `Showing ${queue.rows.length} late ${queue.rows.length === 1 ? "loan" : "loans"}, oldest due date first.`} A loan {queue.chargeOffDays} or more days past due is proposed for charge-off.
        </p>
        {queue.rows.length > 0 ? (
          <div className="mt-3">
            <h2 id="collections-table-heading" className="sr-only">
              Late loans
            </h2>
            <ScrollingTable labelledBy="collections-table-heading" tableClassName="min-w-[60rem]" testId="collections-table">
              <TableHead columns={COLUMNS} className="bg-muted" cellClassName="px-3 py-2 font-semibold" />
              <tbody>
                {queue.rows.map((row) => (
                  <QueueRow key={row.loanId} row={row} viewerId={queue.viewerId} timeZone={timeZone} />
                ))}
              </tbody>
            </ScrollingTable>
          </div>
        ) : null}
        {queue.paged || queue.next ? (
          <nav aria-label="Collections pages" className="mt-4 flex gap-4 text-sm">
            {queue.paged ? (
              <Link to={queueSearch(queue.filter, null) || "/admin/collections"} className="font-medium text-link underline-offset-4 hover:underline">
                First page
              </Link>
            ) : null}
            {queue.next ? (
              <Link to={queueSearch(queue.filter, queue.next)} className="font-medium text-link underline-offset-4 hover:underline" data-testid="collections-next">
                Next page
              </Link>
            ) : null}
          </nav>
        ) : null}
      </Card>
    </AdminShell>
  );
}

function QueueRow({ row, viewerId, timeZone }: { row: CollectionsQueueRow; viewerId: string; timeZone: string }) {
  const assign = useFetcher<CollectionsActionData>({ key: `collections-assign-${row.loanId}` });
  useActionToast(assign.data);
  const mine = row.collector?.id === viewerId;
  return (
    <tr className="border-t border-border align-top" data-testid="collections-row" data-loan-id={row.loanId}>
      <td className="px-3 py-2">
        <Link to={`/admin/loans/${row.loanId}`} className="font-medium text-link underline-offset-4 hover:underline">
          {row.borrowerName}
        </Link>
        <span className="block text-xs text-muted-foreground">{row.reference}</span>
        <span className="mt-1 flex flex-wrap gap-1">
          {row.contactStopped ? (
            <Badge variant="destructive" data-testid="marker-contact-stopped">
              Contact stopped
            </Badge>
          ) : null}
          {row.brokenPromise ? (
            <Badge variant="warning" data-testid="marker-broken-promise">
              Broken promise
            </Badge>
          ) : null}
          {row.proposedForChargeOff ? (
            <Badge variant="destructive" data-testid="marker-charge-off">
              Proposed for charge-off
            </Badge>
          ) : null}
        </span>
      </td>
      <td className="px-3 py-2 text-right tabular-nums" data-testid="days-past-due">
        {row.daysPastDue}
        <span className="block text-xs text-muted-foreground">{row.bucketLabel} days</span>
      </td>
      <td className="px-3 py-2 text-right tabular-nums" data-testid="amount-due">
        {formatMoney(row.amountDueCents)}
        <span className="block text-xs text-muted-foreground">since {formatDay(row.nextDueDate)}</span>
      </td>
      <td className="px-3 py-2" data-testid="last-contact">
        {row.lastContact ? (
          <>
            <time dateTime={row.lastContact.at}>{formatDateTime(row.lastContact.at, timeZone)}</time>
            <span className="block text-xs text-muted-foreground">
              {row.lastContact.channelLabel}: {row.lastContact.outcomeLabel}
            </span>
          </>
        ) : (
          "None yet"
        )}
      </td>
      <td className="px-3 py-2 [overflow-wrap:anywhere]" data-testid="next-action">
        {nextActionText(row.nextAction)}
      </td>
      <td className="px-3 py-2" data-testid="assigned-to">
        {row.collector ? <span className="block">{mine ? `${row.collector.name} (you)` : row.collector.name}</span> : <span className="block">Unassigned</span>}
        {row.collector ? null : (
          <assign.Form method="post" action="/admin/collections" className="mt-1">
            <input type="hidden" name="intent" value="assign-to-me" />
            <input type="hidden" name="loanId" value={row.loanId} />
            <PendingButton type="submit" size="sm" variant="outline" pending={assign.state !== "idle"} icon={<UserCheck aria-hidden="true" />} data-action="assign-to-me">
              Assign to Me
            </PendingButton>
          </assign.Form>
        )}
      </td>
    </tr>
  );
}
