import { ListCard } from "~/components/ui/list-card";
import { formatDateTime } from "~/domain/formats";
import type { TimelineEntry } from "~/domain/views/application-page";

/**
 * The Application Timeline: every event of one application, newest first, each with its
 * time. Staff pages pass internal entries too (marked "Internal"); the applicant's page never receives them.
 */
export function ApplicationTimeline({ entries, timeZone }: { entries: TimelineEntry[]; timeZone: string }) {
  return (
    <ListCard titleId="application-timeline-title" title="Application Timeline" empty={entries.length === 0} emptyText="Nothing has happened on this application yet.">
      <ol aria-labelledby="application-timeline-title" className="relative space-y-4 border-l border-border pl-5" data-testid="application-timeline">
        {entries.map((entry) => (
          <li key={entry.id} className="relative" data-kind={entry.kind}>
            <span aria-hidden="true" className="absolute top-1.5 -left-[1.6rem] size-2.5 rounded-full bg-navy-700 ring-4 ring-background" />
            <p className="font-semibold text-foreground">
              {entry.title}
              {entry.internal ? <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-900">Internal</span> : null}
            </p>
            {entry.summary ? <p className="text-sm break-words whitespace-pre-line text-foreground">{entry.summary}</p> : null}
            <p className="text-sm text-muted-foreground">
              <time dateTime={entry.at}>{formatDateTime(entry.at, timeZone)}</time>
              {entry.actor ? <> · {entry.actor}</> : null}
            </p>
          </li>
        ))}
      </ol>
    </ListCard>
  );
}
