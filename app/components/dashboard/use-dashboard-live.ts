import { useEffect, useState } from "react";
import { useRevalidator } from "react-router";
import { toast } from "~/components/toaster";
import { useLiveUpdates, type LiveChange } from "~/components/live/use-live-updates";
import type { Dashboard } from "~/domain/views/dashboard";
import { APPROVAL_DESCRIPTION, APPROVAL_TITLE } from "./approval-notice";

/**
 * Live refresh of the dashboard (docs/requirements.md §5). Every change the server streams to this browser (it
 * streams only the user's own rows, or everything to an admin) reloads the loader data in place, as
 * does a resync after a reconnect; the page is never reloaded.
 *
 * 'Loan Approved!' is announced when an approval change (an application updated to approved, an
 * approved loan inserted or updated) has arrived AND the reloaded data shows an approval this page
 * had not shown before: an application of this user that turned approved, or a new active loan.
 * Checking the reloaded data keeps an admin, who receives everyone's changes, from being told of
 * approvals that are not theirs, and catches an approval missed while disconnected (resync).
 */

export function isApprovalChange(change: LiveChange): boolean {
  if (change.table === "loan_applications") return change.status === "approved";
  if (change.table === "approved_loans") return change.op === "INSERT" || change.op === "UPDATE";
  return false;
}

/** What counts as "approved" on the page: approved applications and listed (active) loans. */
export function approvalKeys(data: Pick<Dashboard, "applications" | "approvedLoans">): string[] {
  return [
    ...data.applications.filter((a) => a.status === "approved").map((a) => `application:${a.id}`),
    ...data.approvedLoans.map((l) => `loan:${l.id}`),
  ].sort();
}

export function hasNewApproval(before: readonly string[], after: readonly string[]): boolean {
  const seen = new Set(before);
  return after.some((key) => !seen.has(key));
}

export function useDashboardLive(data: Dashboard) {
  const revalidator = useRevalidator();
  const [noticeOpen, setNoticeOpen] = useState(false);
  /** Bumped for each approval announced; the toast follows it. */
  const [announced, setAnnounced] = useState(0);
  /** An approval change (or a resync) arrived that the reloaded data has not answered yet. */
  const [expectingApproval, setExpectingApproval] = useState(false);

  const keys = approvalKeys(data);
  const signature = keys.join("|");
  const [shown, setShown] = useState({ signature, keys });
  if (shown.signature !== signature) {
    // Adjusting state while rendering (React's pattern for "props changed"): compare with what the
    // page showed before this data arrived.
    setShown({ signature, keys });
    if (expectingApproval && hasNewApproval(shown.keys, keys)) {
      setExpectingApproval(false);
      setNoticeOpen(true);
      setAnnounced((n) => n + 1);
    }
  }

  useLiveUpdates({
    onChange: (change) => {
      if (isApprovalChange(change)) setExpectingApproval(true);
      void revalidator.revalidate();
    },
    onResync: () => {
      setExpectingApproval(true);
      void revalidator.revalidate();
    },
  });

  useEffect(() => {
    if (announced === 0) return;
    toast.success(APPROVAL_TITLE, { id: "loan-approved", description: APPROVAL_DESCRIPTION });
  }, [announced]);

  return { noticeOpen, dismissNotice: () => setNoticeOpen(false) };
}
