import { ClipboardList } from "lucide-react";
import { Card } from "~/components/ui/card";
import type { DashboardApplication } from "~/domain/views/dashboard";
import { ApplicationDetailsDialog } from "./application-details-dialog";
import { formatDate } from "~/domain/formats";
import { loanTypeLabel } from "~/domain/labels";
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
        <Card className="mt-5 flex flex-col items-center gap-3 border-dashed px-6 py-10 text-center">
          <ClipboardList aria-hidden="true" className="size-10 text-navy-700" />
          <p className="font-semibold text-primary">No applications submitted yet</p>
          <p className="max-w-md text-sm text-muted-foreground">Applications you submit appear here with their status.</p>
        </Card>
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
    <Card className="p-5 sm:p-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <h3 className="min-w-0 text-lg font-semibold text-primary">{loanTypeLabel(application.loanType)}</h3>
        <ApplicationStatusBadge status={application.status} />
      </div>
      <dl className="mt-4 grid grid-cols-1 gap-x-6 gap-y-3 text-sm min-[400px]:grid-cols-2 md:grid-cols-[auto_auto_1fr]">
        <RequestFacts
          application={application}
          submitted={submitted}
          purposeClassName="min-w-0 min-[400px]:col-span-2 md:col-span-1"
          purposeValueClassName="line-clamp-3 font-semibold break-words"
        />
      </dl>
      <div className="mt-4 flex justify-end">
        <ApplicationDetailsDialog application={application} timeZone={timeZone} />
      </div>
    </Card>
  );
}
