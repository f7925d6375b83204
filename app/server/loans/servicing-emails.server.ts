import { loanName, type LoanMailSubject } from "./loan-reference.server";
import { BRAND_NAME, layout, pageButton, type RenderedEmail } from "~/server/platform/mail/email-layout.server";

/**
 * To the borrower: their loan is paid in full. Like every e-mail here it says only that, and
 * links to the loan's page, where the paid-in-full letter (PDF) is: no amounts, no account numbers.
 */
export function paidInFullEmail(data: LoanMailSubject): RenderedEmail {
  return layout("loan-paid-in-full", `Your ${BRAND_NAME} loan is paid in full`, "Your loan is paid in full", [
    { kind: "p", text: "Hello," },
    {
      kind: "p",
      text: `Your ${loanName(data)} with ${BRAND_NAME} is paid in full. Thank you. Your paid-in-full letter is on your loan's page, where you can download it at any time.`,
    },
    pageButton("View my loan", data.baseUrl, `/dashboard/loans/${data.loanId}`),
  ]);
}
