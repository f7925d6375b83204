import { PartyPopper, X } from "lucide-react";
import { Button } from "~/components/ui/button";

export const APPROVAL_TITLE = "Loan Approved!";
export const APPROVAL_DESCRIPTION = "Congratulations! One of your loan applications has been approved.";

/**
 * The inline 'Loan Approved!' notice at the top of the dashboard, shown until dismissed. The status
 * region stays in the page (empty while closed) so screen readers announce what appears in it.
 */
export function ApprovalNotice({ open, onDismiss, hasOffer = false }: { open: boolean; onDismiss: () => void; hasOffer?: boolean }) {
  return (
    <div
      className={
        open ? "mb-8 flex items-start gap-3 rounded-lg border border-green-700 bg-green-50 p-4 text-green-950" : undefined
      }
    >
      {open ? <PartyPopper aria-hidden="true" className="mt-0.5 size-6 shrink-0 text-green-800" /> : null}
      <div role="status" className={open ? "min-w-0 flex-1" : "sr-only"} data-testid="approval-notice">
        {open ? (
          <>
            <p className="font-semibold">{APPROVAL_TITLE}</p>
            <p className="text-sm">
              {APPROVAL_DESCRIPTION}{" "}
              {/* Approval makes an offer (issue 20): the loan itself is listed once the agreement is signed. */}
              <a href={hasOffer ? "#your-loan-offers" : "#approved-loans"} className="font-semibold underline underline-offset-2">
                {hasOffer ? "Review your loan offer" : "See your approved loans"}
              </a>
            </p>
          </>
        ) : null}
      </div>
      {open ? (
        <Button
          variant="ghost"
          size="icon"
          aria-label="Dismiss approval notice"
          className="-mt-2 -mr-2 text-green-950 hover:bg-green-100"
          onClick={onDismiss}
        >
          <X aria-hidden="true" />
        </Button>
      ) : null}
    </div>
  );
}
