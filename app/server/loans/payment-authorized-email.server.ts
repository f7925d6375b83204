import { loanName, type LoanMailSubject } from "./loan-reference.server";
import { formatAgreementDay } from "~/domain/views/agreement-preview";
import { formatMoney } from "~/domain/money";
import { BRAND_NAME, layout, pageButton, type RenderedEmail } from "~/server/platform/mail/email-layout.server";

/**
 * To the borrower: the one-time ACH debit they authorised on their loan's page. The amount,
 * the day and the payment's reference, and "your bank account on file": no account or routing number,
 * not even its last digits.
 */
export function paymentAuthorizedEmail(data: LoanMailSubject & { amountCents: number; onOrAfter: string; reference: string }): RenderedEmail {
  return layout("payment-authorized", `Your ${BRAND_NAME} payment is scheduled`, "Your payment is scheduled", [
    { kind: "p", text: "Hello," },
    {
      kind: "p",
      text: `You authorized a one-time ACH debit from your bank account on file as a payment on your ${loanName(data)}. It is Pending until it settles; then it appears as Posted in your Payment History.`,
    },
    {
      kind: "fields",
      rows: [
        ["Amount", formatMoney(data.amountCents)],
        ["Debited on or after", formatAgreementDay(data.onOrAfter)],
        ["Reference", data.reference],
      ],
    },
    { kind: "small", text: "To revoke this authorization, send us a message before the debit is initiated. If you did not authorize this payment, contact us at once." },
    pageButton("View my loan", data.baseUrl, `/dashboard/loans/${data.loanId}`),
  ]);
}
