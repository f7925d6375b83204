import { ArrowLeft } from "lucide-react";
import { useRef } from "react";
import { Link } from "react-router";
import { AdminShell } from "~/components/admin/admin-shell";
import { NotesSection } from "~/components/admin/applications/notes-form";
import { ApplicationTimeline } from "~/components/application/application-timeline";
import { MessagesPanel } from "~/components/application/messages-panel";
import { useApplicationLive } from "~/components/application/use-application-live";
import { WhatWeNeedPanel } from "~/components/application/what-we-need-panel";
import { useDisplayTimeZone } from "~/components/dashboard/format";
import { ApplicationStatusBadge } from "~/components/dashboard/status-badge";
import { buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { isOpenForReview } from "~/domain/application-lifecycle";
import { formatDateTime } from "~/domain/formats";
import { formatAmount } from "~/domain/money";
import { loanTypeLabel } from "~/domain/labels";
import { reviewListHref, REVIEW_TABS, type ReviewTab } from "~/domain/validation/review";
import type { AdminApplicationPageData } from "~/domain/views/admin-application-page";
import { ApplicationDocuments, BankAccounts, EmploymentDetails, LoanDetails, PersonalDetails } from "./application-facts";
import { ApprovalPanel } from "./approval-panel";
import { AssignmentPanel } from "./assignment-panel";
import { OfferPanel } from "./offer-panel";
import { ReviewActions } from "./review-actions";
import { SanctionsPanel } from "./sanctions-panel";
import { DecisionFacts, Fact, RequestedFacts, TextFact } from "~/components/admin/fact";

/**
 * /admin/applications/:id: the whole application for staff. The summary and the decisions
 * the lifecycle allows; Sanctions Screening (Clear Match, Confirm Match); What We Need and Messages; every field the applicant entered; bank accounts and
 * the SSN masked (audited reveal); the loan offers (terms, Truth in Lending figures, Withdraw
 * Offer, the signing certificate); the documents through signed links; the internal notes; the
 * Application Timeline with internal entries. Changes by the applicant or another admin, on any
 * instance, reload it in place.
 */
export function AdminApplicationPage({ data }: { data: AdminApplicationPageData }) {
  const a = data.application;
  const s = a.summary;
  const timeZone = useDisplayTimeZone();
  const summaryHeading = useRef<HTMLHeadingElement>(null);
  useApplicationLive(s.id);
  const open = isOpenForReview(s.status);
  // A role that may not work applications (the auditor) sees no controls; the server refuses anyway.
  const canWork = data.permissions["applications.work"];
  const backTab: ReviewTab = (REVIEW_TABS as readonly string[]).includes(s.status) ? (s.status as ReviewTab) : "pending";

  return (
    <AdminShell
      title={s.applicantName}
      description={`${loanTypeLabel(s.loanType)}, ${formatAmount(s.requestedAmount)} requested`}
      actions={
        <Link to={`/admin${reviewListHref(backTab)}`} className={buttonVariants({ variant: "outline" })}>
          <ArrowLeft aria-hidden="true" />
          All Applications
        </Link>
      }
    >
      <div className="flex flex-col gap-6" data-testid="admin-application" data-application-id={s.id} data-status={s.status}>
        <Card className="p-4 sm:p-5" role="region" aria-labelledby="application-summary">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h2 id="application-summary" ref={summaryHeading} tabIndex={-1} className="text-lg font-semibold text-primary focus-visible:outline-3">
              Application Summary
            </h2>
            <ApplicationStatusBadge status={s.status} />
          </div>
          <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-3 text-sm min-[480px]:grid-cols-2 lg:grid-cols-4">
            <Fact label="Loan Type">{loanTypeLabel(s.loanType)}</Fact>
            <Fact label="Requested Amount">{formatAmount(s.requestedAmount)}</Fact>
            <RequestedFacts application={s} timeZone={timeZone} />
            {s.reviewedAt ? (
              <Fact label="Decided">
                <time dateTime={s.reviewedAt}>{formatDateTime(s.reviewedAt, timeZone)}</time>
              </Fact>
            ) : null}
            <Fact label="Application ID">
              <span className="font-mono text-xs break-all">{s.id}</span>
            </Fact>
            <DecisionFacts application={s} />
            {a.denialSource ? <TextFact label="Information Source" text={a.denialSource} className="break-words" testId="denial-source" /> : null}
          </dl>
          {canWork ? (
            <div className="mt-4">
              <ReviewActions application={a} focusAfter={summaryHeading} originationFeePercent={data.originationFeePercent} maxAprPercent={data.maxAprPercent} />
            </div>
          ) : null}
        </Card>

        <ApprovalPanel applicationId={s.id} approval={a.approval} canWork={canWork} timeZone={timeZone} />
        <AssignmentPanel applicationId={s.id} assignment={a.assignment} viewerId={data.viewerId} canWork={canWork} timeZone={timeZone} />
        <SanctionsPanel applicationId={s.id} sanctions={a.sanctions} canWork={canWork} timeZone={timeZone} />

        <OfferPanel applicationId={s.id} offers={a.offers} certificate={a.certificate} timeZone={timeZone} />

        <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
          <div className="flex min-w-0 flex-col gap-6">
            <WhatWeNeedPanel applicationId={s.id} items={a.requestItems} side="staff" open={open && canWork} timeZone={timeZone} />
            <MessagesPanel applicationId={s.id} conversation={a.conversation} side="staff" open={open} timeZone={timeZone} />
            <LoanDetails application={a} />
            <PersonalDetails application={a} />
            <EmploymentDetails application={a} />
            <BankAccounts application={a} />
            <ApplicationDocuments application={a} timeZone={timeZone} />
            <Card className="p-4 sm:p-5" data-testid="internal-notes">
              <NotesSection applicationId={s.id} applicantName={s.applicantName} notes={s.notes} heading="h2" title="Internal Notes" className="" />
            </Card>
          </div>
          <div className="min-w-0">
            <ApplicationTimeline entries={a.timeline} timeZone={timeZone} />
          </div>
        </div>
      </div>
    </AdminShell>
  );
}
