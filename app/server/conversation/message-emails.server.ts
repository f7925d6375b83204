import { BRAND_NAME, layout, pageButton, type RenderedEmail } from "~/server/platform/mail/email-layout.server";

/**
 * Messages: "You have a new message". It never carries the message's text, the writer's name
 * or anything from the application (the text may hold personal or financial details and e-mail is not
 * a safe channel for them): only that there is a message and the link to the page behind the sign-in.
 * At most one per conversation per hour for each side (conversation_notices, messages.server.ts).
 */

export function newMessageEmail(data: { applicationId: string; recipientSide: "applicant" | "staff"; baseUrl: string }): RenderedEmail {
  const applicant = data.recipientSide === "applicant";
  const path = applicant ? `/dashboard/applications/${data.applicationId}` : `/admin/applications/${data.applicationId}`;
  return layout("new-message", `${BRAND_NAME}: You have a new message`, "You have a new message", [
    {
      kind: "p",
      text: applicant
        ? `${BRAND_NAME} sent you a message about your loan application. For your privacy the message is not included in this e-mail; sign in to read it and reply.`
        : "An applicant sent a message about their loan application. Sign in to the admin area to read it and reply.",
    },
    pageButton(applicant ? "Read the message" : "Open the application", data.baseUrl, path),
    {
      kind: "small",
      text: "You receive at most one of these e-mails an hour for each application, however many messages arrive.",
    },
  ]);
}
