import { formatDay } from "~/domain/formats";
import { site } from "~/content/site";
import { loanTypeLabel } from "~/domain/labels";
import { BRAND_NAME, creditorAddress, layout, pageButton, type RenderedEmail } from "~/server/platform/mail/email-layout.server";
import { actionTakenFacts, ECOA_NOTICE } from "~/server/platform/mail/templates.server";

/**
 * To the applicant: the application was closed as incomplete. This is the notice of action
 * taken that Regulation B asks for when an application is incomplete and the applicant did not supply
 * what was requested by the date given (12 CFR 1002.9(a)(1)(i), (c)(2)): the action taken, why, the
 * creditor's name and address, that they may apply again, and the ECOA notice. Like every e-mail here it
 * carries no personal or financial details (no name, no amount, nothing the applicant wrote): the page
 * behind the sign-in has those. Compliance counsel should review the final wording.
 */
export function applicationIncompleteEmail(data: { loanType: string; applicationId: string; baseUrl: string; decisionDate?: Date }): RenderedEmail {
  const date = formatDay(data.decisionDate ?? new Date());
  return layout("application-incomplete", `Your ${BRAND_NAME} application was closed as incomplete`, "Notice of action taken on your application", [
    { kind: "p", text: "Hello," },
    {
      kind: "p",
      text: `We have closed your ${loanTypeLabel(data.loanType)} application with ${BRAND_NAME} as incomplete, because the information we asked you for was not received by the date we gave in our request.`,
    },
    actionTakenFacts(["Action taken", "Application closed as incomplete"], ["Date", date], data.applicationId),
    {
      kind: "p",
      text: "This is not a decision on your creditworthiness. You are welcome to apply again at any time; a new application will be reviewed in full.",
    },
    {
      kind: "p",
      text: `If you have questions, or believe the information did reach us, contact us at ${site.phone.display}, ${site.email} or ${creditorAddress}. You can see what was requested on your application page:`,
    },
    pageButton("View my application", data.baseUrl, `/dashboard/applications/${data.applicationId}`),
    ECOA_NOTICE,
  ]);
}
