import { Inbox } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useRevalidator } from "react-router";
import { AdminShell } from "~/components/admin/admin-shell";
import { useDisplayTimeZone } from "~/components/dashboard/format";
import { useLiveUpdates } from "~/components/live/use-live-updates";
import { awaitingListHref, reviewListHref } from "~/domain/validation/review";
import type { Permission } from "~/domain/staff-permissions";
import { MyQueueToggle } from "./my-queue-toggle";
import type { AdminApplication, AdminApplicationList } from "~/domain/views/admin-applications";
import { AdminToolLinks, SecureDataUtilities } from "./admin-tools";
import { ApplicationCard } from "./application-card";
import { ApproveDialog } from "./approve-dialog";
import { DenyDialog } from "./deny-dialog";
import { Pagination } from "~/components/admin/pagination";
import { AWAITING_LABEL, StatusTabs, TAB_LABELS } from "./status-tabs";
import { AwaitingConfirmationNotice } from "./awaiting-confirmation-notice";

/** A failed load is the route's ErrorBoundary (app/components/admin/page-load-error.tsx). */
export type AdminApplicationsData = {
  list: AdminApplicationList;
  /** The approve dialog's default Origination Fee (%) (ORIGINATION_FEE_PERCENT). */
  originationFeePercent: number;
  /** The highest APR an offer may carry (MAX_APR). */
  maxAprPercent: number;
  /** The viewer's permissions: Approve and Deny only for roles that work applications. */
  permissions: Record<Permission, boolean>;
};

/** How long live changes are gathered before one reload (a burst of changes reloads once). */
const LIVE_DEBOUNCE_MS = 300;

/** Reloads the list whenever an application changes anywhere (admins receive every change event). */
function useApplicationsLive() {
  const revalidator = useRevalidator();
  const latest = useRef(revalidator);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    latest.current = revalidator;
  });
  useEffect(() => () => clearTimeout(timer.current), []);
  const schedule = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void latest.current.revalidate(), LIVE_DEBOUNCE_MS);
  };
  useLiveUpdates({
    onChange: (change) => {
      // New messages change the cards' unread counts.
      if (change.table === "loan_applications" || change.table === "application_messages") schedule();
    },
    onResync: schedule,
  });
}

type Setter = (application: AdminApplication | null) => void;

/** The admin dashboard (docs/requirements.md §3): tools, the encryption utility and the review list by status. */
export function AdminApplicationsPage({ data }: { data: AdminApplicationsData }) {
  const timeZone = useDisplayTimeZone();
  const [approving, setApproving] = useState<AdminApplication | null>(null);
  const [denying, setDenying] = useState<AdminApplication | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  useApplicationsLive();

  const restoreFocus = () => {
    const target = opener.current;
    opener.current = null;
    // The card is gone once decided: then the list heading takes focus.
    if (target?.isConnected) target.focus();
    else headingRef.current?.focus();
  };

  /** Opening a decision dialog remembers its button, for focus to go back to on close. */
  const opens = (set: Setter) => (application: AdminApplication, button: HTMLElement) => {
    opener.current = button;
    set(application);
  };
  /** A decided application leaves the list, its button with it: focus then goes to the heading. */
  const closes = (set: Setter) => (decided?: boolean) => {
    if (decided) opener.current = null;
    set(null);
  };

  const list = data.list;
  const listLabel = list.awaiting ? AWAITING_LABEL : TAB_LABELS[list.tab];
  const canWork = data.permissions["applications.work"];
  return (
    <AdminShell title="Admin Dashboard" description="Review loan applications and manage client data securely.">
      <div className="flex flex-col gap-8">
        <AdminToolLinks />
        {/* Only roles allowed to run the migration see it (the action refuses the others with a 403). */}
        {data.permissions["security.manage"] ? <SecureDataUtilities /> : null}

        <section aria-labelledby="applications-heading" className="flex flex-col gap-4">
          <h2 id="applications-heading" ref={headingRef} tabIndex={-1} className="text-xl font-bold text-primary focus-visible:outline-3">
            Loan Applications
          </h2>
          {canWork && !list.awaiting ? <AwaitingConfirmationNotice count={list.awaitingConfirmation.notMine} /> : null}
          <MyQueueToggle tab={list.tab} mine={list.mine} />
          <StatusTabs current={list.tab} counts={list.counts} mine={list.mine} awaiting={list.awaiting} awaitingCount={list.awaitingConfirmation.total} />
          {list.applications.length === 0 ? (
            <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed border-border p-10 text-center">
              <Inbox aria-hidden="true" className="size-8 text-navy-700" />
              <p className="font-semibold text-primary">
                {list.awaiting ? "No approvals awaiting confirmation" : `No ${listLabel.toLowerCase()} applications${list.mine ? " assigned to you" : ""}`}
              </p>
            </div>
          ) : (
            <ul className="flex flex-col gap-4" aria-label={`${listLabel} applications${list.mine ? " in My Queue" : ""}, page ${list.page} of ${list.pageCount}`}>
              {list.applications.map((application) => (
                <li key={application.id}>
                  <ApplicationCard
                    application={application}
                    timeZone={timeZone}
                    onApprove={opens(setApproving)}
                    onDeny={opens(setDenying)}
                    canWork={canWork}
                  />
                </li>
              ))}
            </ul>
          )}
          <Pagination page={list.page} pageCount={list.pageCount} cursors={list.cursors} hrefFor={(target) => (list.awaiting ? awaitingListHref(target) : reviewListHref(list.tab, target, list.mine))} />
        </section>
      </div>

      <ApproveDialog application={approving} onClose={closes(setApproving)} onCloseFocus={restoreFocus} originationFeePercent={data.originationFeePercent} maxAprPercent={data.maxAprPercent} />
      <DenyDialog application={denying} onClose={closes(setDenying)} onCloseFocus={restoreFocus} />
    </AdminShell>
  );
}
