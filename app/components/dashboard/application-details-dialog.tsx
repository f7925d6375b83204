import { Button } from "~/components/ui/button";
import { Detail } from "~/components/ui/detail-list";
import { DialogCloseButton, ModalDialog } from "~/components/ui/dialog";
import { formatDate } from "~/domain/formats";
import { loanTypeLabel } from "~/domain/labels";
import type { DashboardApplication } from "~/domain/views/dashboard";
import { shortId } from "./format";
import { RequestFacts } from "./request-facts";
import { OwnDocumentRow } from "./own-document-row";
import { useOwnDocumentLinks } from "./use-own-document-links";
import { ApplicationStatusBadge } from "./status-badge";

/**
 * The application detail card (docs/requirements.md §3) in an accessible dialog: focus moves in and is trapped,
 * Escape and the close buttons return focus to 'View Details'. Each document downloads through a
 * fresh 60-second link to the applicant's own file (see use-own-document-links).
 */
export function ApplicationDetailsDialog({ application, timeZone }: { application: DashboardApplication; timeZone: string }) {
  const links = useOwnDocumentLinks();
  const type = loanTypeLabel(application.loanType);
  const submitted = formatDate(application.submittedAt, timeZone);
  return (
    <ModalDialog
      testId="application-details"
      title="Application Details"
      description={
        <>
          Application ID: <span className="font-mono text-foreground">{shortId(application.id)}</span>
        </>
      }
      trigger={
        <Button variant="outline" size="sm" className="w-full sm:w-auto">
          View Details
          <span className="sr-only">
            {" "}
            of the {type} application submitted {submitted}
          </span>
        </Button>
      }
    >
      <dl className="mt-5 grid grid-cols-1 gap-x-6 gap-y-4 text-sm min-[400px]:grid-cols-2">
        <Detail label="Status" valueClassName="mt-1">
          <ApplicationStatusBadge status={application.status} />
        </Detail>
        <Detail label="Loan Type">{type}</Detail>
        <RequestFacts
          application={application}
          submitted={submitted}
          purposeClassName="min-[400px]:col-span-2"
          purposeValueClassName="font-semibold break-words whitespace-pre-line"
        />
      </dl>

      <h3 className="mt-6 text-base font-semibold text-primary">Documents Submitted</h3>
      {application.documents.length === 0 ? (
        <p className="mt-2 text-sm text-muted-foreground">No documents on file for this application.</p>
      ) : (
        <ul className="mt-2 flex flex-col gap-2 text-sm" aria-label="Documents submitted">
          {application.documents.map((doc) => (
            <OwnDocumentRow key={doc.id} id={doc.id} fileName={doc.fileName} links={links}>
              <span className="min-w-0 flex-1 [overflow-wrap:anywhere]" data-testid="document-name">{doc.fileName}</span>
            </OwnDocumentRow>
          ))}
        </ul>
      )}

      <div className="mt-6 flex justify-end">
        <DialogCloseButton className="w-full sm:w-auto" />
      </div>
    </ModalDialog>
  );
}
