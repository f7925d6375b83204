import { YourLoanOffer } from "~/components/offer/your-loan-offer";
import type { Dashboard } from "~/domain/views/dashboard";
import { ApplicationsSection } from "./applications-section";
import { ApprovalNotice } from "./approval-notice";
import { ApprovedLoansSection } from "./approved-loans-section";
import { ContinueApplicationSection } from "./continue-application-section";
import { useDisplayTimeZone } from "./format";
import { useDashboardLive } from "./use-dashboard-live";
import { WhatWeNeedSummary } from "./what-we-need-summary";

/** The applicant dashboard (docs/requirements.md §3): greeting, approved loans, applications, kept live. */
export function DashboardPage({ data }: { data: Dashboard }) {
  const timeZone = useDisplayTimeZone();
  const { noticeOpen, noticeKind, dismissNotice } = useDashboardLive(data);
  // An account with nothing on file yet has not been here before in any way that matters to it.
  const greeting = data.applications.length === 0 && data.approvedLoans.length === 0 ? "Welcome" : "Welcome back";
  // Each open offer waits above Approved Loans (a loan appears there once its agreement is signed).
  const openOffers = data.offers.filter((offer) => offer.status === "offered");

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-10 sm:px-6 sm:py-14 lg:px-8">
      <ApprovalNotice open={noticeOpen} onDismiss={dismissNotice} hasOffer={openOffers.length > 0} kind={noticeKind} />
      <header className="mb-10">
        <h1 className="text-3xl font-bold tracking-tight break-words text-primary sm:text-4xl">
          {greeting}, {data.fullName}
        </h1>
        <p className="mt-2 text-muted-foreground">Your approved loans and the applications you have submitted, kept up to date.</p>
      </header>
      <div className="flex flex-col gap-12">
        <WhatWeNeedSummary items={data.whatWeNeed} />
        <ContinueApplicationSection drafts={data.drafts ?? []} timeZone={timeZone} />
        {openOffers.length > 0 ? (
          <div id="your-loan-offers" className="flex scroll-mt-24 flex-col gap-6" data-testid="open-offers">
            {openOffers.map((offer) => (
              <YourLoanOffer key={offer.id} offer={offer} timeZone={timeZone} focusAfterDecline="main" />
            ))}
          </div>
        ) : null}
        <ApprovedLoansSection loans={data.approvedLoans} paidOff={data.paidOffLoans} timeZone={timeZone} />
        <ApplicationsSection applications={data.applications} timeZone={timeZone} />
      </div>
    </div>
  );
}
