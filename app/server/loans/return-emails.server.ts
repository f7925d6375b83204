import { loanName, type LoanMailSubject } from "./loan-reference.server";
import { formatMoney } from "~/domain/money";
import { formatAgreementDay } from "~/domain/views/agreement-preview";
import { BRAND_NAME, layout, pageButton, type RenderedEmail } from "~/server/platform/mail/email-layout.server";

/**
 * To the borrower: their bank returned a debit. The amount, the reference, the day, the bank's reason
 * (the return code and its label) and what happens next (the same sentence the loan page shows), plus
 * a returned-payment fee when the loan's terms have one and the scheduled debits that will no longer be
 * taken. Never an account or routing number, not even the last four digits.
 */
export function paymentReturnedEmail(
  data: LoanMailSubject & {
    amountCents: number;
    reference: string;
    returnedOn: string;
    /** "R01 Insufficient Funds". */
    reason: string;
    nextStep: string;
    feeCents: number | null;
    /** Debits not sent yet that were cancelled with this return (autopay stopped, the account unusable or blocked). */
    cancelledCents: number[];
    /** The debit had posted to the loan before the bank returned it: it was taken back off. */
    wasPosted: boolean;
    /** The return reopened a loan the debit had paid off. */
    owesAgain: boolean;
  },
): RenderedEmail {
  const rows: [string, string][] = [
    ["Amount", formatMoney(data.amountCents)],
    ["Reference", data.reference],
    ["Returned on", formatAgreementDay(data.returnedOn)],
    ["Bank's reason", data.reason],
  ];
  if (data.feeCents !== null) rows.push(["Returned-payment fee", formatMoney(data.feeCents)]);
  return layout("payment-returned", `Your ${BRAND_NAME} payment was returned`, "Your payment was returned", [
    { kind: "p", text: "Hello," },
    { kind: "p", text: `Your bank returned the ACH debit below on your ${loanName(data)}${data.wasPosted ? ", after it had been applied: it was taken back off your loan." : ", so it was not paid."}${data.owesAgain ? " Your loan is no longer paid in full: the amount is owed again." : ""}` },
    { kind: "fields", rows },
    { kind: "strong", text: data.nextStep },
    ...(data.feeCents !== null ? [{ kind: "p" as const, text: `As your loan agreement provides, a returned-payment fee of ${formatMoney(data.feeCents)} was added to your loan; your next payment pays it first.` }] : []),
    ...(data.cancelledCents.length > 0
      ? [{ kind: "p" as const, text: `Your scheduled ${data.cancelledCents.length === 1 ? "debit" : "debits"} of ${data.cancelledCents.map((c) => formatMoney(c)).join(", ")} will not be taken.` }]
      : []),
    { kind: "small", text: "If you have questions, send us a message from your loan's page." },
    pageButton("View my loan", data.baseUrl, `/dashboard/loans/${data.loanId}`),
  ]);
}
