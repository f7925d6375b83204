import { Link } from "react-router";
import { awaitingListHref } from "~/domain/validation/review";

/**
 * Tells staff who may confirm four-eyes approvals that some are waiting for them: the approvals
 * proposed by someone else (the proposer can never confirm their own). Shown on the admin list to
 * roles that work applications, only while there is one; it links to Awaiting Confirmation.
 */
export function AwaitingConfirmationNotice({ count }: { count: number }) {
  if (count === 0) return null;
  const approvals = count === 1 ? "1 approval is" : `${count} approvals are`;
  return (
    <div
      className="flex flex-col gap-2 rounded-lg border border-amber-400 bg-amber-50 p-4 text-sm text-amber-950 sm:flex-row sm:items-center sm:justify-between"
      data-testid="awaiting-confirmation-notice"
    >
      <p>
        <strong className="font-semibold">{approvals} waiting for your confirmation.</strong> Another staff member proposed {count === 1 ? "it" : "them"}; the offer is
        made once someone else confirms.
      </p>
      <Link to={awaitingListHref()} className="shrink-0 font-semibold underline underline-offset-2">
        Show Awaiting Confirmation
      </Link>
    </div>
  );
}
