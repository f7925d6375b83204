import { formatMoment } from "~/domain/formats";
import { site } from "~/content/site";
import { BRAND_NAME, greeting, layout, pageButton, type RenderedEmail } from "~/server/platform/mail/email-layout.server";

/**
 * Download My Data and Close My Account e-mails. The export e-mail carries only the link:
 * no data, and the link itself works only for the same person signed in, within 24 hours.
 */

const when = (d: Date) => formatMoment(d);

export function dataExportReadyEmail(data: { name: string; baseUrl: string; path: string; expiresAt: Date }): RenderedEmail {
  return layout("data-export-ready", `Your ${BRAND_NAME} data file is ready`, "Your data file is ready", [
    greeting(data.name),
    { kind: "p", text: "The file you asked for with Download My Data is ready. Sign in to download it." },
    pageButton("Download My Data", data.baseUrl, data.path),
    { kind: "p", text: `The link works until ${when(data.expiresAt)}, only while you are signed in to your own account.` },
    { kind: "small", text: `If you did not ask for this file, change your password and contact us at ${site.phone.display} or ${site.email}.` },
  ]);
}

export function accountClosedEmail(data: { name: string; closedAt: Date; keptUntil: string }): RenderedEmail {
  return layout("account-closed", `Your ${BRAND_NAME} account is closed`, "Your account is closed", [
    greeting(data.name),
    { kind: "p", text: `You closed your ${BRAND_NAME} account on ${when(data.closedAt)}. You have been signed out everywhere, and the account can no longer be signed in to.` },
    {
      kind: "p",
      text: `The law requires us to keep your loan applications, their documents, any loan records, your consents and our audit log for ${data.keptUntil}. They are deleted when that time ends.`,
    },
    { kind: "small", text: `If you did not close your account, contact us at once at ${site.phone.display} or ${site.email}.` },
  ]);
}
