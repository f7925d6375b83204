import { useEffect, useState } from "react";
import { useRevalidator } from "react-router";
import { toast } from "~/components/toaster";
import { useLiveUpdates, type LiveChange } from "~/components/live/use-live-updates";
import type { Dashboard } from "~/domain/views/dashboard";
import { ANNOUNCEMENTS, type ApprovalAnnouncement } from "./approval-notice";

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
 * When every new approval is an application whose offer is a Counteroffer, it is announced as
 * 'Counteroffer' instead: the reloaded data carries the offer, so the announcement needs nothing
 * more from the event than that something was approved.
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

/**
 * How the approvals new in `after` are announced, or null when there is none: 'counteroffer' when
 * each of them is an application whose latest offer is a Counteroffer, else 'approved'.
 */
export function announcementFor(before: readonly string[], after: readonly string[], offers: Dashboard["offers"]): ApprovalAnnouncement | null {
  const seen = new Set(before);
  const fresh = after.filter((key) => !seen.has(key));
  if (fresh.length === 0) return null;
  // Offers come newest first: the first one of an application is its latest.
  const latest = new Map<string, boolean>();
  for (const offer of offers) if (!latest.has(offer.applicationId)) latest.set(offer.applicationId, offer.isCounteroffer);
  const counter = fresh.every((key) => key.startsWith("application:") && latest.get(key.slice("application:".length)) === true);
  return counter ? "counteroffer" : "approved";
}

export function useDashboardLive(data: Dashboard) {
  const revalidator = useRevalidator();
  const [noticeOpen, setNoticeOpen] = useState(false);
  /** The last approval announced, as what, and a new object for each one: the toast follows it. */
  const [announced, setAnnounced] = useState<{ kind: ApprovalAnnouncement } | null>(null);
  /** An approval change (or a resync) arrived that the reloaded data has not answered yet. */
  const [expectingApproval, setExpectingApproval] = useState(false);

  const keys = approvalKeys(data);
  const signature = keys.join("|");
  const [shown, setShown] = useState({ signature, keys });
  if (shown.signature !== signature) {
    // Adjusting state while rendering (React's pattern for "props changed"): compare with what the
    // page showed before this data arrived.
    setShown({ signature, keys });
    const kind = expectingApproval ? announcementFor(shown.keys, keys, data.offers) : null;
    if (kind) {
      setExpectingApproval(false);
      setNoticeOpen(true);
      setAnnounced({ kind });
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
    if (!announced) return;
    const { title, description } = ANNOUNCEMENTS[announced.kind];
    if (announced.kind === "counteroffer") toast.info(title, { id: "loan-counteroffer", description });
    else toast.success(title, { id: "loan-approved", description });
  }, [announced]);

  return { noticeOpen, noticeKind: announced?.kind ?? "approved", dismissNotice: () => setNoticeOpen(false) };
}
