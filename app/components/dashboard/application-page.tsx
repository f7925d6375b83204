import { Breadcrumb } from "~/components/ui/breadcrumb";
import { documentTypeLabel } from "~/components/admin/clients/format";
import { ApplicationTimeline } from "~/components/application/application-timeline";
import { MessagesPanel } from "~/components/application/messages-panel";
import { useApplicationLive } from "~/components/application/use-application-live";
import { WhatWeNeedPanel } from "~/components/application/what-we-need-panel";
import { YourLoanOffer } from "~/components/offer/your-loan-offer";
import { Card } from "~/components/ui/card";
import { ListCard } from "~/components/ui/list-card";
import { Detail } from "~/components/ui/detail-list";
import { formatDate } from "~/domain/formats";
import { formatAmount } from "~/domain/money";
import { loanTypeLabel } from "~/domain/labels";
import type { ApplicantApplicationPage } from "~/domain/views/applicant-application";
import { applicationReference, useDisplayTimeZone } from "./format";
import { DenialNotice } from "./denial-notice";
import { ApplicationStatusBadge } from "./status-badge";
import { OwnDocumentRow } from "./own-document-row";
import { useOwnDocumentLinks } from "./use-own-document-links";
import { WithdrawApplication } from "./withdraw-application";

/**
 * The applicant's page for one application: what they asked for and its status, What We
 * Need, Messages, the Application Timeline and the documents on file, and Withdraw Application while
 * it is under consideration. It follows the other side's changes live (useApplicationLive).
 */
export function ApplicantApplicationView({ data }: { data: ApplicantApplicationPage }) {
  const timeZone = useDisplayTimeZone();
  const { application } = data;
  useApplicationLive(application.id);
  const reference = applicationReference(application.id);
  const type = loanTypeLabel(application.loanType);
  // The latest offer, whatever its status (open, signed, declined, expired, withdrawn).
  const offer = data.offers[0];

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 sm:py-12 lg:px-8">
      <Breadcrumb crumbs={[{ label: "Dashboard", to: "/dashboard" }, { label: `Application ${reference}` }]} />

      {/* Under the title on phones, beside it from sm up: never "beside it if it fits", since whether it
          fits changes when the typeface arrives (its bold is wider than the fallback's) and the whole page
          below moved down by a line (Lighthouse's layout shift of 0.26; decision 0052). */}
      <header className="mt-4 mb-8 flex flex-col items-start gap-3 sm:flex-row sm:justify-between">
        <div className="min-w-0">
          <h1 className="text-3xl font-bold tracking-tight break-words text-primary sm:text-4xl">Application {reference}</h1>
          <p className="mt-2 text-muted-foreground">{type}</p>
        </div>
        <ApplicationStatusBadge status={application.status} />
      </header>

      <Card className="p-5 sm:p-6" data-testid="application-summary">
        <h2 className="sr-only">Summary</h2>
        <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm min-[400px]:grid-cols-2 md:grid-cols-4">
          <Detail label="Loan Type">{type}</Detail>
          <Detail label="Requested Amount">{formatAmount(application.requestedAmount)}</Detail>
          <Detail label="Submitted">
            <time dateTime={application.submittedAt}>{formatDate(application.submittedAt, timeZone)}</time>
          </Detail>
          <Detail label="Reference">
            <span className="font-mono">{reference}</span>
          </Detail>
          <Detail label="Purpose" className="min-w-0 min-[400px]:col-span-2 md:col-span-4" valueClassName="font-semibold break-words whitespace-pre-line">
            {application.purpose}
          </Detail>
        </dl>
        <WithdrawApplication applicationId={application.id} withdrawable={data.withdrawable} withdrawnAt={data.withdrawnAt} timeZone={timeZone} />
      </Card>

      {data.denial ? (
        <div className="mt-8">
          <DenialNotice denial={data.denial} />
        </div>
      ) : null}

      {offer ? (
        <div className="mt-8">
          <YourLoanOffer offer={offer} timeZone={timeZone} />
        </div>
      ) : null}

      <div className="mt-8 grid grid-cols-1 gap-8 lg:grid-cols-[minmax(0,1fr)_minmax(0,24rem)]">
        <div className="flex min-w-0 flex-col gap-8">
          <WhatWeNeedPanel applicationId={application.id} items={data.requestItems} side="applicant" open={data.open} timeZone={timeZone} />
          <MessagesPanel applicationId={application.id} conversation={data.conversation} side="applicant" open={data.open} timeZone={timeZone} />
        </div>
        <div className="flex min-w-0 flex-col gap-8">
          <ApplicationTimeline entries={data.timeline} timeZone={timeZone} />
          <DocumentsCard documents={data.documents} timeZone={timeZone} />
        </div>
      </div>
    </div>
  );
}

function DocumentsCard({ documents, timeZone }: { documents: ApplicantApplicationPage["documents"]; timeZone: string }) {
  const links = useOwnDocumentLinks();
  return (
    <ListCard titleId="documents-title" title="Documents" empty={documents.length === 0} emptyText="No documents on file for this application.">
      <ul aria-labelledby="documents-title" className="flex flex-col gap-2 text-sm" data-testid="application-documents">
        {documents.map((doc) => (
          <OwnDocumentRow key={doc.id} id={doc.id} fileName={doc.fileName} links={links}>
            <span className="min-w-0 flex-1">
              <span className="block font-medium [overflow-wrap:anywhere]">{documentTypeLabel(doc.documentType)}</span>
              <span className="block text-muted-foreground [overflow-wrap:anywhere]" data-testid="document-name">
                {doc.fileName} · <time dateTime={doc.uploadedAt}>{formatDate(doc.uploadedAt, timeZone)}</time>
              </span>
            </span>
          </OwnDocumentRow>
        ))}
      </ul>
    </ListCard>
  );
}
