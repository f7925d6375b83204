import { Info } from "lucide-react";
import { AWAITING_FUNDING_MESSAGE, fundsSentMessage } from "~/domain/funding-checklist";
import type { LoanFundingNotice } from "~/domain/views/borrower-loan";

/**
 * Where a loan's funding stands, for its borrower (the loan page and the dashboard's card): awaiting
 * funding; "Funds sent on <date> to account ••••1234" (also once settled); the bank returned them
 * (add another account); or cancelled unfunded (void, with the reason). `day` formats a
 * 'yyyy-MM-dd' like the other dates where it is shown.
 */
export function FundingNotice({ notice, day }: { notice: LoanFundingNotice; day: (value: string) => string }) {
  const tone =
    notice.kind === "returned" || notice.kind === "cancelled" ? "border-amber-600 bg-amber-50 text-amber-950" : notice.kind === "sent" ? "border-green-700 bg-green-50 text-green-950" : "border-navy-200 bg-navy-50 text-slate-800";
  return (
    <div role="status" className={`flex items-start gap-3 rounded-lg border p-3 text-sm ${tone}`} data-testid="funding-notice" data-kind={notice.kind}>
      <Info aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
      <p className="break-words">
        {notice.kind === "awaiting" ? AWAITING_FUNDING_MESSAGE : null}
        {notice.kind === "sent" ? fundsSentMessage(day(notice.sentOn), notice.last4) : null}
        {notice.kind === "returned" ? notice.message : null}
        {notice.kind === "cancelled" ? (
          <>
            This loan was cancelled on {day(notice.cancelledOn)} before it was funded: the loan agreement is void and nothing is owed under it. Reason:{" "}
            <span className="whitespace-pre-line">{notice.reason}</span>
          </>
        ) : null}
      </p>
    </div>
  );
}
