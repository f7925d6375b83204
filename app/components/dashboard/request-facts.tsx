import { Detail } from "~/components/ui/detail-list";
import { formatAmount } from "~/domain/money";
import type { DashboardApplication } from "~/domain/views/dashboard";

/**
 * What the applicant asked for (amount, submitted date, purpose), as <dl> entries: the application card
 * shows them with the purpose cut to three lines, the details dialog in full.
 */
export function RequestFacts({
  application,
  submitted,
  purposeClassName,
  purposeValueClassName,
}: {
  application: DashboardApplication;
  /** The submitted date as the page shows it (in the display time zone). */
  submitted: string;
  purposeClassName: string;
  purposeValueClassName: string;
}) {
  return (
    <>
      <Detail label="Requested Amount">{formatAmount(application.requestedAmount)}</Detail>
      <Detail label="Submitted">
        <time dateTime={application.submittedAt}>{submitted}</time>
      </Detail>
      <Detail label="Purpose" className={purposeClassName} valueClassName={purposeValueClassName}>
        {application.purpose}
      </Detail>
    </>
  );
}
