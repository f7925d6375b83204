import { returnCodeText } from "~/domain/funding-checklist";
import { BRAND_NAME, layout, pageButton, type RenderedEmail } from "~/server/platform/mail/email-layout.server";
import { loanName, type LoanMailSubject } from "./loan-reference.server";

/**
 * To the borrower when the bank returned the zero-dollar prenote that validates their account: the bank
 * could not validate the account they gave (the return code and its label), and how to give another
 * (Change Bank Account on the loan's page). No digit of the account, as in every e-mail.
 */
export function prenoteReturnedEmail(data: LoanMailSubject & { returnCode: string }): RenderedEmail {
  return layout("prenote-returned", `Your ${BRAND_NAME} bank account could not be validated`, "Your bank account could not be validated", [
    { kind: "p", text: "Hello," },
    {
      kind: "p",
      text: `Before we send or collect money, we validate the bank account with a zero-dollar test entry. Your bank could not validate the account you gave for your ${loanName(data)}.`,
    },
    { kind: "fields", rows: [["Bank's reason", returnCodeText(data.returnCode)]] },
    { kind: "p", text: "Please add another account on your loan's page with Change Bank Account. Until then, no money can be sent to or collected from the account." },
    pageButton("Change Bank Account", data.baseUrl, `/dashboard/loans/${data.loanId}`),
  ]);
}
