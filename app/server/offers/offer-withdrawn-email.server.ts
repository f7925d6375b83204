import { formatDay } from "~/domain/formats";
import { site } from "~/content/site";
import { loanTypeLabel } from "~/domain/labels";
import { BRAND_NAME, creditorAddress, greeting, layout, pageButton, type RenderedEmail } from "~/server/platform/mail/email-layout.server";

/**
 * To the applicant: staff withdrew the loan offer. The reason as staff wrote it, how to
 * reach the lender, and a link to the application page. No figures beyond what the applicant already
 * has, and never an account number.
 */
export function offerWithdrawnEmail(data: {
  applicantName: string;
  loanType: string;
  applicationId: string;
  reason: string;
  baseUrl: string;
  withdrawnAt?: Date;
}): RenderedEmail {
  const date = formatDay(data.withdrawnAt ?? new Date());
  return layout("offer-withdrawn", `Your ${BRAND_NAME} loan offer was withdrawn`, "Your loan offer was withdrawn", [
    greeting(data.applicantName),
    {
      kind: "p",
      text: `We have withdrawn the loan offer we made on your ${loanTypeLabel(data.loanType)} application. It can no longer be signed.`,
    },
    {
      kind: "fields",
      rows: [
        ["Offer withdrawn on", date],
        ["Reference", data.applicationId],
      ],
    },
    { kind: "strong", text: "Why we withdrew the offer" },
    { kind: "quote", text: data.reason },
    {
      kind: "p",
      text: `If you have questions, send us a message from your application page or contact us at ${site.phone.display}, ${site.email} or ${BRAND_NAME}, ${creditorAddress}.`,
    },
    pageButton("View your application", data.baseUrl, `/dashboard/applications/${data.applicationId}`),
  ]);
}
