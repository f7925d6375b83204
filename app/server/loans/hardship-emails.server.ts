import { formatMoney } from "~/domain/money";
import { signedDifference, type PlanTotals } from "~/domain/hardship-plans";
import { formatAgreementDay } from "~/domain/views/agreement-preview";
import { BRAND_NAME, layout, pageButton, type RenderedEmail } from "~/server/platform/mail/email-layout.server";
import { loanName, type LoanMailSubject } from "./loan-reference.server";

/**
 * To the borrower, about a hardship plan: a plan offered (what it is, until when it can be signed, the
 * link to review and sign it) and the copy of the plan they signed (with its effect on the total cost;
 * the signed PDF is downloaded from the loan page, never attached). Never an account or routing number.
 */

function totalsRows(totals: PlanTotals): [string, string][] {
  return [
    ["Remaining payments before", formatMoney(totals.before.paymentsCents)],
    ["Remaining payments with the plan", formatMoney(totals.after.paymentsCents)],
    ["Difference", signedDifference(totals.before.paymentsCents, totals.after.paymentsCents)],
    ["Finance charge before", formatMoney(totals.before.interestCents)],
    ["Finance charge with the plan", formatMoney(totals.after.interestCents)],
    ["Difference in finance charge", signedDifference(totals.before.interestCents, totals.after.interestCents)],
  ];
}

export function planOfferedEmail(data: LoanMailSubject & { kindLabel: string; sentence: string; expiresOn: string; totals: PlanTotals }): RenderedEmail {
  return layout("plan-offered", `A ${data.kindLabel.toLowerCase()} plan is ready for you to review`, "A plan to help with your payments", [
    { kind: "p", text: "Hello," },
    { kind: "p", text: `We have prepared a plan for your ${loanName(data)} to help with your payments:` },
    { kind: "quote", text: data.sentence },
    { kind: "fields", rows: totalsRows(data.totals) },
    { kind: "p", text: `Review the new Payment Schedule and sign the plan by ${formatAgreementDay(data.expiresOn)}. Nothing changes until you sign it; you can also decline it.` },
    pageButton("Review the plan", data.baseUrl, `/dashboard/loans/${data.loanId}/plan`),
    { kind: "small", text: `If you did not ask ${BRAND_NAME} for help with your payments, send us a message from your loan's page.` },
  ]);
}

export function planSignedEmail(data: LoanMailSubject & { kindLabel: string; sentence: string; signedAt: string; totals: PlanTotals; nextDue: { dueDate: string; amountCents: number } | null }): RenderedEmail {
  return layout("plan-signed", `Your ${BRAND_NAME} loan modification is signed`, "Your plan is signed", [
    { kind: "p", text: "Hello," },
    { kind: "p", text: `You signed a loan modification for your ${loanName(data)}. This is your copy of the plan:` },
    { kind: "quote", text: data.sentence },
    { kind: "fields", rows: [["Signed at", data.signedAt], ...totalsRows(data.totals)] },
    ...(data.nextDue ? [{ kind: "p" as const, text: `Your next payment of ${formatMoney(data.nextDue.amountCents)} is due ${formatAgreementDay(data.nextDue.dueDate)}.` }] : []),
    { kind: "p", text: "Your loan is now serviced by the new Payment Schedule. The signed modification agreement (PDF) is on your loan's page." },
    pageButton("View my loan", data.baseUrl, `/dashboard/loans/${data.loanId}`),
  ]);
}

/**
 * To staff, when a borrower asks for help with payments: the loan, the reason, what they can pay and
 * how late the loan is, with the link to the staff loan page's Hardship panel. The details the
 * borrower wrote stay in the portal (they may be about health or family); never an account number.
 */
export function hardshipRequestedEmail(data: LoanMailSubject & { reasonLabel: string; canPayCents: number; daysPastDue: number }): RenderedEmail {
  return layout("hardship-requested", `Help with payments requested: ${loanName(data)}`, "A borrower asked for help with payments", [
    { kind: "p", text: `The borrower of ${loanName(data)} asked for help with payments on the loan's page.` },
    {
      kind: "fields",
      rows: [
        ["Reason", data.reasonLabel],
        ["Can pay a month", formatMoney(data.canPayCents)],
        ["Days past due", String(data.daysPastDue)],
      ],
    },
    { kind: "p", text: "Offer a plan or close the request from the Hardship panel of the loan's page." },
    pageButton("Open the loan", data.baseUrl, `/admin/loans/${data.loanId}`),
  ]);
}
