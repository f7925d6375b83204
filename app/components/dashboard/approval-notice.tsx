import { FileText, PartyPopper, X } from "lucide-react";
import { Button } from "~/components/ui/button";

export const APPROVAL_TITLE = "Loan Approved!";
export const APPROVAL_DESCRIPTION = "Congratulations! One of your loan applications has been approved.";
export const COUNTEROFFER_TITLE = "Counteroffer";
export const COUNTEROFFER_DESCRIPTION = "We can't make the loan you asked for, but we can offer you one on other terms.";

/**
 * What an approval that arrives live is announced as: 'Loan Approved!' (the spec's notice) for an
 * offer on the terms asked for; 'Counteroffer' for one on other terms (less money, a higher rate or
 * another term; ~/domain/loan-offers isCounteroffer), which is not an approval of what was asked.
 */
export type ApprovalAnnouncement = "approved" | "counteroffer";

export const ANNOUNCEMENTS: Record<ApprovalAnnouncement, { title: string; description: string }> = {
  approved: { title: APPROVAL_TITLE, description: APPROVAL_DESCRIPTION },
  counteroffer: { title: COUNTEROFFER_TITLE, description: COUNTEROFFER_DESCRIPTION },
};

/**
 * The inline notice at the top of the dashboard, shown until dismissed: 'Loan Approved!' or
 * 'Counteroffer'. The status region stays in the page (empty while closed) so screen readers announce
 * what appears in it.
 */
export function ApprovalNotice({
  open,
  onDismiss,
  hasOffer = false,
  kind = "approved",
}: {
  open: boolean;
  onDismiss: () => void;
  hasOffer?: boolean;
  kind?: ApprovalAnnouncement;
}) {
  const counter = kind === "counteroffer";
  const { title, description } = ANNOUNCEMENTS[kind];
  const frame = counter ? "border-amber-600 bg-amber-50 text-amber-950" : "border-green-700 bg-green-50 text-green-950";
  const Icon = counter ? FileText : PartyPopper;
  return (
    <div className={open ? `mb-8 flex items-start gap-3 rounded-lg border p-4 ${frame}` : undefined} data-announcement={open ? kind : undefined}>
      {open ? <Icon aria-hidden="true" className={`mt-0.5 size-6 shrink-0 ${counter ? "text-amber-800" : "text-green-800"}`} /> : null}
      <div role="status" className={open ? "min-w-0 flex-1" : "sr-only"} data-testid="approval-notice">
        {open ? (
          <>
            <p className="font-semibold">{title}</p>
            <p className="text-sm">
              {description}{" "}
              {/* Approval makes an offer: the loan itself is listed once the agreement is signed. */}
              <a href={hasOffer ? "#your-loan-offers" : "#approved-loans"} className="font-semibold underline underline-offset-2">
                {counter ? "Review the counteroffer" : hasOffer ? "Review your loan offer" : "See your approved loans"}
              </a>
            </p>
          </>
        ) : null}
      </div>
      {open ? (
        <Button
          variant="ghost"
          size="icon"
          aria-label={counter ? "Dismiss counteroffer notice" : "Dismiss approval notice"}
          className={counter ? "-mt-2 -mr-2 text-amber-950 hover:bg-amber-100" : "-mt-2 -mr-2 text-green-950 hover:bg-green-100"}
          onClick={onDismiss}
        >
          <X aria-hidden="true" />
        </Button>
      ) : null}
    </div>
  );
}
