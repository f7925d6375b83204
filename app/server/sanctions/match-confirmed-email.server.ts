import { formatDay } from "~/domain/formats";
import { layout, pageButton, type RenderedEmail } from "~/server/platform/mail/email-layout.server";

/**
 * To every admin: a staff member confirmed a sanctions match on an application. It names the applicant
 * and links to the application; nothing else about the applicant (the page has the rest, behind sign-in).
 */
export function sanctionsMatchConfirmedEmail(data: { applicantName: string; applicationId: string; confirmedBy: string; confirmedAt: Date; baseUrl: string }): RenderedEmail {
  return layout("sanctions-match-confirmed", "Sanctions match confirmed on an application", "Sanctions match confirmed", [
    {
      kind: "p",
      text: `${data.confirmedBy} confirmed a sanctions list match for the applicant ${data.applicantName}. The application is denied and frozen: it takes no further decision and cannot be funded.`,
    },
    { kind: "fields", rows: [["Confirmed on", formatDay(data.confirmedAt)], ["Application", data.applicationId]] },
    { kind: "p", text: "Check whether a report to the Treasury (OFAC) is due. Do not tell the applicant about the match." },
    pageButton("View the application", data.baseUrl, `/admin/applications/${data.applicationId}`),
  ]);
}
