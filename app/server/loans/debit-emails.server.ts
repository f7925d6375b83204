import { loanName, type LoanMailSubject } from "./loan-reference.server";
import { formatMoney } from "~/domain/money";
import { formatAgreementDay } from "~/domain/views/agreement-preview";
import { BRAND_NAME, layout, pageButton, type RenderedEmail } from "~/server/platform/mail/email-layout.server";

/**
 * To the borrower, about a one-time ACH debit they authorised that will not be taken: cancelled before
 * it was sent, by staff (with their reason) or because the loan was paid off first. Amount, reference
 * and reason; never an account or routing number.
 */
export function debitCancelledEmail(data: LoanMailSubject & { amountCents: number; reference: string; reason: string }): RenderedEmail {
  return layout("debit-cancelled", `Your ${BRAND_NAME} payment was cancelled`, "Your scheduled payment was cancelled", [
    { kind: "p", text: "Hello," },
    {
      kind: "p",
      text: `The one-time ACH debit you authorized on your ${loanName(data)} was cancelled before it was sent to your bank. It will not be taken from your account.`,
    },
    {
      kind: "fields",
      rows: [
        ["Amount", formatMoney(data.amountCents)],
        ["Reference", data.reference],
        ["Reason", data.reason],
      ],
    },
    { kind: "small", text: "If you did not expect this, send us a message from your loan's page." },
    pageButton("View my loan", data.baseUrl, `/dashboard/loans/${data.loanId}`),
  ]);
}

/**
 * To the borrower: a debit the bank collected after the loan was already paid off. It is not applied
 * to the loan; the lender owes it back and says so.
 */
export function refundDueEmail(data: LoanMailSubject & { amountCents: number; reference: string; receivedOn: string }): RenderedEmail {
  return layout("refund-due", `A refund is on its way from ${BRAND_NAME}`, "We owe you a refund", [
    { kind: "p", text: "Hello," },
    {
      kind: "p",
      text: `Your ${loanName(data)} was already paid in full when the ACH debit below reached us, so it was not applied to the loan. We will send the amount back to you and e-mail you when it is on its way.`,
    },
    {
      kind: "fields",
      rows: [
        ["Amount", formatMoney(data.amountCents)],
        ["Reference", data.reference],
        ["Received on", formatAgreementDay(data.receivedOn)],
      ],
    },
    pageButton("View my loan", data.baseUrl, `/dashboard/loans/${data.loanId}`),
  ]);
}

/** To the borrower: the refund of a debit collected after payoff was sent. */
export function refundSentEmail(data: LoanMailSubject & { amountCents: number; refundedOn: string; refundReference: string }): RenderedEmail {
  return layout("refund-sent", `Your ${BRAND_NAME} refund was sent`, "Your refund was sent", [
    { kind: "p", text: "Hello," },
    { kind: "p", text: `We sent back the payment that reached us after your ${loanName(data)} was paid in full.` },
    {
      kind: "fields",
      rows: [
        ["Amount", formatMoney(data.amountCents)],
        ["Sent on", formatAgreementDay(data.refundedOn)],
        ["Refund reference", data.refundReference],
      ],
    },
    pageButton("View my loan", data.baseUrl, `/dashboard/loans/${data.loanId}`),
  ]);
}
