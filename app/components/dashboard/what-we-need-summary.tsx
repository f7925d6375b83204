import { ClipboardCheck } from "lucide-react";
import { Link } from "react-router";
import { Card } from "~/components/ui/card";
import { formatDate } from "~/domain/formats";
import { loanTypeLabel } from "~/domain/labels";
import type { DashboardRequestItem } from "~/domain/views/dashboard";
import { cn } from "~/utils/cn";
import { applicationReference } from "./format";
import { IconHeading } from "~/components/ui/icon-heading";

/** A due date ('yyyy-MM-dd', a calendar date) as "Dec 1, 2026", the same in every time zone. */
export function formatDueDate(date: string): string {
  return formatDate(`${date}T12:00:00Z`, "UTC");
}

/**
 * What We Need on the dashboard: every item the lender is waiting for across the
 * applicant's applications, soonest due first, each linking to its application's page where it is
 * answered. Nothing is shown when nothing is needed.
 */
export function WhatWeNeedSummary({ items }: { items: DashboardRequestItem[] }) {
  if (items.length === 0) return null;
  return (
    <section aria-labelledby="what-we-need-heading" data-testid="what-we-need-summary">
      <Card className="border-amber-300 bg-amber-50 p-5 sm:p-6">
        <IconHeading icon={ClipboardCheck} iconClassName="size-6 shrink-0 text-amber-800" id="what-we-need-heading" className="text-xl font-bold tracking-tight text-primary">
          What We Need
        </IconHeading>
        <p className="mt-1 text-sm text-foreground">We need the following to keep reviewing your application. Open the application to upload or reply.</p>
        <ul className="mt-4 flex flex-col gap-2" aria-label="Items we need from you">
          {items.map((item) => (
            <li key={item.id} data-request-item-id={item.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 rounded-md border border-amber-200 bg-white px-3 py-2 text-sm">
              <span className="min-w-0">
                <span className="font-semibold">{item.kindLabel}</span>
                <span className="text-muted-foreground"> · {loanTypeLabel(item.loanType)}</span>
                {item.status === "rejected" ? <span className="ml-2 font-medium text-red-700">{item.statusLabel}: please upload again</span> : null}
              </span>
              <span className="flex flex-wrap items-center gap-x-4 gap-y-1">
                <span className={cn(item.overdue ? "font-semibold text-red-700" : "text-muted-foreground")}>
                  {item.overdue ? "Overdue: was due " : "Due "}
                  <time dateTime={item.dueDate}>{formatDueDate(item.dueDate)}</time>
                </span>
                <Link to={`/dashboard/applications/${item.applicationId}`} className="font-semibold text-navy-700 underline-offset-2 hover:underline">
                  Open Application {applicationReference(item.applicationId)}
                  <span className="sr-only"> to answer: {item.kindLabel}</span>
                </Link>
              </span>
            </li>
          ))}
        </ul>
      </Card>
    </section>
  );
}
