import { MessagesPanel } from "~/components/application/messages-panel";
import { useDisplayTimeZone } from "~/components/dashboard/format";
import type { BorrowerLoanPage } from "~/domain/views/borrower-loan";
import { LoanSection } from "./loan-section";

/**
 * Message Us from the loan page: the conversation of the application the loan came from (the same
 * thread staff read and answer on the application), sent through its own route and owner check. Not a
 * second messaging system: revoking a debit, asking about a payment, anything about the loan.
 */
export function BorrowerMessages({ data }: { data: BorrowerLoanPage }) {
  const timeZone = useDisplayTimeZone();
  return (
    <LoanSection titleId="loan-messages-heading" title="Message Us" className="scroll-mt-24">
      <MessagesPanel
        applicationId={data.applicationId}
        conversation={data.conversation}
        side="applicant"
        open={false}
        timeZone={timeZone}
        hint="Write to us about your loan, for example to revoke a debit before it is sent. Ctrl+Enter sends."
      />
    </LoanSection>
  );
}
