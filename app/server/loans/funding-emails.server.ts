import { loanName, type LoanMailSubject } from "./loan-reference.server";
import { fundsSentMessage } from "~/domain/funding-checklist";
import { formatAgreementDay } from "~/domain/views/agreement-preview";
import { formatMoney } from "~/domain/money";
import { BRAND_NAME, layout, pageButton, type RenderedEmail } from "~/server/platform/mail/email-layout.server";

/**
 * To the borrower about their loan's funding: the funds were sent (the file's effective date and the
 * account's last four digits, never more of it), the bank returned them (add another account), or
 * the loan was cancelled before funding (the agreement is void).
 */

export function loanFundsSentEmail(data: LoanMailSubject & { amountCents: number; sentOn: string; last4: string }): RenderedEmail {
  return layout("loan-funds-sent", `Your ${BRAND_NAME} loan funds were sent`, "Your loan funds were sent", [
    { kind: "p", text: "Hello," },
    { kind: "p", text: `${fundsSentMessage(formatAgreementDay(data.sentOn), data.last4)}: ${formatMoney(data.amountCents)}, the proceeds of your ${loanName(data)}.` },
    { kind: "p", text: "Interest on your loan runs from the day the funds settled. Your payment schedule is on your loan's page." },
    pageButton("View my loan", data.baseUrl, `/dashboard/loans/${data.loanId}`),
  ]);
}

export function loanFundsReturnedEmail(data: LoanMailSubject & { message: string }): RenderedEmail {
  return layout("loan-funds-returned", `Your ${BRAND_NAME} loan funds came back`, "Your loan funds came back", [
    { kind: "p", text: "Hello," },
    { kind: "p", text: `We sent the proceeds of your ${loanName(data)}, but your bank returned them.` },
    { kind: "p", text: data.message },
    pageButton("Add another account", data.baseUrl, `/dashboard/loans/${data.loanId}`),
  ]);
}

export function loanCancelledEmail(data: LoanMailSubject & { reason: string }): RenderedEmail {
  return layout("loan-cancelled", `Your ${BRAND_NAME} loan was cancelled`, "Your loan was cancelled", [
    { kind: "p", text: "Hello," },
    { kind: "p", text: `Your ${loanName(data)} was not funded and has been cancelled: the loan agreement you signed is void, and you owe nothing under it.` },
    { kind: "fields", rows: [["Reason", data.reason]] },
    { kind: "small", text: "If you have questions, send us a message from your dashboard." },
    pageButton("View my loan", data.baseUrl, `/dashboard/loans/${data.loanId}`),
  ]);
}
