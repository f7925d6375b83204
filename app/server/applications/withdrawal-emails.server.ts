import { formatDay } from "~/domain/formats";
import { site } from "~/content/site";
import { loanTypeLabel } from "~/domain/labels";
import { BRAND_NAME, layout, pageButton, type RenderedEmail } from "~/server/platform/mail/email-layout.server";
import { actionTakenFacts } from "~/server/platform/mail/templates.server";

/**
 * To the applicant: they withdrew their application (Withdraw Application). A confirmation, not a
 * notice of action taken: Regulation B owes none when the applicant withdraws an application before a
 * decision (12 CFR 1002.9(e)). It says who withdrew it and when, so an applicant who did not can tell
 * us at once. Like every e-mail here it carries no personal or financial details.
 */
export function applicationWithdrawnEmail(data: { loanType: string; applicationId: string; baseUrl: string; withdrawnAt: Date }): RenderedEmail {
  const date = formatDay(data.withdrawnAt);
  return layout("application-withdrawn", `You withdrew your ${BRAND_NAME} application`, "Your application was withdrawn", [
    { kind: "p", text: "Hello," },
    {
      kind: "p",
      text: `You withdrew your ${loanTypeLabel(data.loanType)} application with ${BRAND_NAME}. We have stopped reviewing it and will make no decision on it.`,
    },
    actionTakenFacts(["What happened", "Application withdrawn by the applicant"], ["Date", date], data.applicationId),
    {
      kind: "p",
      text: "You are welcome to apply again at any time; a new application will be reviewed in full. We keep the withdrawn application's records for the period the law requires, as our privacy notice explains.",
    },
    {
      kind: "p",
      text: `If you did not withdraw this application, contact us at once at ${site.phone.display} or ${site.email}. Your application's page shows its history:`,
    },
    pageButton("View my application", data.baseUrl, `/dashboard/applications/${data.applicationId}`),
  ]);
}
