import { FileText, X } from "lucide-react";
import { Dialog } from "radix-ui";
import { Button } from "~/components/ui/button";
import type { DashboardApplication } from "~/domain/views/dashboard";
import { formatAmount, formatDate } from "~/domain/formats";
import { loanTypeLabel } from "~/domain/labels";
import { shortId } from "./format";
import { ApplicationStatusBadge } from "./status-badge";

/**
 * The application detail card (docs/requirements.md §3) in an accessible dialog: focus moves in and is trapped,
 * Escape and the close buttons return focus to 'View Details'. Documents are listed by name only:
 * an applicant never gets links to, or contents of, stored files here.
 */
export function ApplicationDetailsDialog({ application, timeZone }: { application: DashboardApplication; timeZone: string }) {
  const type = loanTypeLabel(application.loanType);
  const submitted = formatDate(application.submittedAt, timeZone);
  return (
    <Dialog.Root>
      <Dialog.Trigger asChild>
        <Button variant="outline" size="sm" className="w-full sm:w-auto">
          View Details
          <span className="sr-only">
            {" "}
            of the {type} application submitted {submitted}
          </span>
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-navy-950/60" />
        <Dialog.Content
          className="fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 flex-col overflow-y-auto rounded-xl border border-border bg-card p-5 text-card-foreground shadow-xl sm:p-6"
          data-testid="application-details"
        >
          <div className="flex items-start justify-between gap-4">
            <div className="min-w-0">
              <Dialog.Title className="text-xl font-bold text-primary">Application Details</Dialog.Title>
              <Dialog.Description className="mt-1 text-sm text-muted-foreground">
                Application ID: <span className="font-mono text-foreground">{shortId(application.id)}</span>
              </Dialog.Description>
            </div>
            <Dialog.Close asChild>
              <Button variant="ghost" size="icon" aria-label="Close" className="-mt-2 -mr-2">
                <X aria-hidden="true" />
              </Button>
            </Dialog.Close>
          </div>

          <dl className="mt-5 grid grid-cols-1 gap-x-6 gap-y-4 text-sm min-[400px]:grid-cols-2">
            <div>
              <dt className="text-muted-foreground">Status</dt>
              <dd className="mt-1">
                <ApplicationStatusBadge status={application.status} />
              </dd>
            </div>
            <div>
              <dt className="text-muted-foreground">Loan Type</dt>
              <dd className="font-semibold">{type}</dd>
            </div>
            <div>
              <dt className="text-muted-foreground">Requested Amount</dt>
              <dd className="font-semibold">{formatAmount(application.requestedAmount)}</dd>
            </div>
            <div>
              <dt className="text-muted-foreground">Submitted</dt>
              <dd className="font-semibold">
                <time dateTime={application.submittedAt}>{submitted}</time>
              </dd>
            </div>
            <div className="min-[400px]:col-span-2">
              <dt className="text-muted-foreground">Purpose</dt>
              <dd className="font-semibold break-words whitespace-pre-line">{application.purpose}</dd>
            </div>
          </dl>

          <h3 className="mt-6 text-base font-semibold text-primary">Documents Submitted</h3>
          {application.documents.length === 0 ? (
            <p className="mt-2 text-sm text-muted-foreground">No documents on file for this application.</p>
          ) : (
            <ul className="mt-2 flex flex-col gap-2 text-sm" aria-label="Documents submitted">
              {application.documents.map((doc) => (
                <li key={doc.id} className="flex min-w-0 items-center gap-2 rounded-md bg-muted px-3 py-2">
                  <FileText aria-hidden="true" className="size-4 shrink-0 text-navy-700" />
                  <span className="truncate">{doc.fileName}</span>
                </li>
              ))}
            </ul>
          )}

          <div className="mt-6 flex justify-end">
            <Dialog.Close asChild>
              <Button variant="secondary" className="w-full sm:w-auto">
                Close
              </Button>
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
