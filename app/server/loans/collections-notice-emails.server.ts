import { formatMoney } from "~/domain/money";
import { BRAND_NAME, layout, pageButton, type RenderedEmail } from "~/server/platform/mail/email-layout.server";
import { loanName, type LoanMailSubject } from "./loan-reference.server";
import { longDate } from "./servicing-notice-emails.server";

/**
 * The collections notices at 15, 30 and 60 days past due: what is due to bring the loan current, since
 * when, and the way to ask for help. Amounts and dates only: never an account or routing number.
 */

export type CollectionsNoticeData = LoanMailSubject & { daysPastDue: 15 | 30 | 60; dueDate: string; amountDueCents: number };

const OPENING: Record<CollectionsNoticeData["daysPastDue"], string> = {
  15: "Your payment is now 15 days past due.",
  30: "Your loan is now 30 days past due.",
  60: "Your loan is now 60 days past due. This is a serious delinquency.",
};

export function collectionsNoticeEmail(data: CollectionsNoticeData): RenderedEmail {
  const loan = loanName(data);
  return layout(`collections-${data.daysPastDue}`, `Your ${BRAND_NAME} loan is ${data.daysPastDue} days past due`, OPENING[data.daysPastDue], [
    { kind: "p", text: "Hello," },
    { kind: "p", text: `We have not received the payment that was due on ${longDate(data.dueDate)} on your ${loan} with ${BRAND_NAME}. ${OPENING[data.daysPastDue]}` },
    {
      kind: "fields",
      rows: [
        ["Amount due to bring the loan current", formatMoney(data.amountDueCents)],
        ["Oldest unpaid payment was due", longDate(data.dueDate)],
      ],
    },
    {
      kind: "p",
      text: "Please make a payment from your loan's page. If you cannot pay right now, use Request Help with Payments on the same page, or reply to this e-mail: we can talk about a payment plan, moving payments or changing your due date. If you have paid in the last few days, thank you: no action is needed.",
    },
    pageButton("View my loan", data.baseUrl, `/dashboard/loans/${data.loanId}`),
  ]);
}
