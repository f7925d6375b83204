import { formatAgreementDay } from "~/domain/views/agreement-preview";

import { BRAND_NAME, greeting, layout, pageButton, type RenderedEmail } from "~/server/platform/mail/email-layout.server";
import { formatMoney } from "~/domain/money";

/**
 * The signed loan agreement's e-mail: that it is signed, the loan's headline figures and
 * a link to the application page, where the applicant downloads the PDF after signing in. Never the
 * file itself, never an account or routing number (the agreement is behind the sign-in).
 */
export function agreementSignedEmail(data: {
  applicantName: string;
  applicationId: string;
  reference: string;
  amountCents: number;
  monthlyPaymentCents: number;
  firstPaymentDue: string;
  baseUrl: string;
}): RenderedEmail {
  return layout("agreement-signed", `Your ${BRAND_NAME} loan agreement is signed`, "Your loan agreement is signed", [
    greeting(data.applicantName),
    { kind: "p", text: "Thank you: you signed your loan agreement electronically, and your loan is now active." },
    {
      kind: "fields",
      rows: [
        ["Agreement", data.reference],
        ["Loan amount", formatMoney(data.amountCents)],
        ["Monthly payment", formatMoney(data.monthlyPaymentCents)],
        ["First payment due", formatAgreementDay(data.firstPaymentDue)],
      ],
    },
    {
      kind: "p",
      text: "Your signed agreement, with its signing certificate, is on your application page: sign in to download it and keep a copy. You may ask us for a paper copy at no charge.",
    },
    pageButton("View your application", data.baseUrl, `/dashboard/applications/${data.applicationId}`),
  ]);
}
