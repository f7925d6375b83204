import { ArrowRight, ClipboardList, MessageSquare } from "lucide-react";
import { LinkButton } from "~/components/link-button";
import type { DashboardApplication } from "~/domain/views/dashboard";
import { ApplicationDetailsDialog } from "./application-details-dialog";
import { formatDate } from "~/domain/formats";
import { loanTypeLabel } from "~/domain/labels";
import { applicationReference, shortId } from "./format";
import { EmptyCard, ItemCard } from "./item-card";
import { RequestFacts } from "./request-facts";
import { ApplicationStatusBadge } from "./status-badge";

/** The applicant's own applications, newest first by submitted date (the server orders them too). */
export function ApplicationsSection({ applications, timeZone }: { applications: DashboardApplication[]; timeZone: string }) {
  const sorted = [...applications].sort((a, b) => Date.parse(b.submittedAt) - Date.parse(a.submittedAt));
  return (
    <section aria-labelledby="applications-heading">
      <h2 id="applications-heading" className="text-2xl font-bold tracking-tight text-primary">
        Loan Applications
      </h2>
      {sorted.length === 0 ? (
        <EmptyCard icon={ClipboardList}>
          <p className="font-semibold text-primary">No applications submitted yet</p>
          <p className="max-w-md text-sm text-muted-foreground">Applications you submit appear here with their status.</p>
        </EmptyCard>
      ) : (
        <ul className="mt-5 flex flex-col gap-4" aria-label="Your loan applications">
          {sorted.map((application) => (
            <li key={application.id} data-testid="application" data-application-id={application.id}>
              <ApplicationCard application={application} timeZone={timeZone} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function ApplicationCard({ application, timeZone }: { application: DashboardApplication; timeZone: string }) {
  const submitted = formatDate(application.submittedAt, timeZone);
  return (
    <ItemCard
      heading={<h3 className="min-w-0 text-lg font-semibold text-primary">{loanTypeLabel(application.loanType)}</h3>}
      badge={<ApplicationStatusBadge status={application.status} />}
    >
      <dl className="mt-4 grid grid-cols-1 gap-x-6 gap-y-3 text-sm min-[400px]:grid-cols-2 md:grid-cols-[auto_auto_1fr]">
        <RequestFacts
          application={application}
          submitted={submitted}
          purposeClassName="min-w-0 min-[400px]:col-span-2 md:col-span-1"
          purposeValueClassName="line-clamp-3 font-semibold break-words"
        />
      </dl>
      <p className="mt-4 text-sm text-slate-800" data-testid="application-next-step">
        <strong className="font-semibold">Next step:</strong> {application.nextStep}
      </p>
      <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
        <p className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-muted-foreground">
          <span>
            Reference: <span className="font-mono text-foreground">{shortId(application.id)}</span>
          </span>
          {application.unreadMessages > 0 ? (
            <span className="inline-flex items-center gap-1 font-semibold text-navy-700" data-testid="unread-messages">
              <MessageSquare aria-hidden="true" className="size-4" />
              {application.unreadMessages === 1 ? "1 new message" : `${application.unreadMessages} new messages`}
            </span>
          ) : null}
        </p>
        <div className="flex w-full flex-col gap-2 sm:w-auto sm:flex-row">
          <ApplicationDetailsDialog application={application} timeZone={timeZone} />
          <LinkButton to={`/dashboard/applications/${application.id}`} size="sm" iconAfter={ArrowRight} className="w-full sm:w-auto">
            View Application<span className="sr-only"> {applicationReference(application.id)}</span>
          </LinkButton>
        </div>
      </div>
    </ItemCard>
  );
}
