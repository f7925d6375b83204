import { loanName, type LoanMailSubject } from "./loan-reference.server";
import { formatUtcDateTime } from "~/domain/formats";
import { maskedAccount } from "~/domain/views/borrower-loan";
import { BRAND_NAME, layout, pageButton, type RenderedEmail } from "~/server/platform/mail/email-layout.server";

/**
 * To the borrower: the bank account their loan's payments are debited from was changed (Change Bank
 * Account). The new account as its type and last 4 digits only, when, and what to do if it was not
 * them: an account change is what someone who took over a session would do first.
 */
export function paymentAccountChangedEmail(data: LoanMailSubject & { accountType: string; last4: string; changedAt: Date }): RenderedEmail {
  return layout("payment-account-changed", `Your ${BRAND_NAME} payment account changed`, "Your payment account changed", [
    { kind: "p", text: "Hello," },
    {
      kind: "p",
      text: `The bank account we debit for payments on your ${loanName(data)} was changed. Payments not yet sent to the bank, and every payment from now on, come from the new account.`,
    },
    {
      kind: "fields",
      rows: [
        ["New payment account", maskedAccount(data.accountType, data.last4)],
        ["Changed", formatUtcDateTime(data.changedAt.toISOString(), "long")],
      ],
    },
    { kind: "small", text: "If you did not make this change, contact us at once and change your password." },
    pageButton("View my loan", data.baseUrl, `/dashboard/loans/${data.loanId}`),
  ]);
}
