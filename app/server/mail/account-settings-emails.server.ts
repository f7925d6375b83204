import { site } from "~/content/site";
import { BRAND_NAME, greeting, layout, pageButton, type RenderedEmail } from "./email-layout.server";
import { VERIFICATION_CODE_VALID_MINUTES } from "./templates.server";

/**
 * Change Email (issue 23): the code goes to the NEW address (proving it is theirs); the OLD address is
 * told of the change without any code or link that could undo or take over anything.
 */

const when = (d: Date) => d.toLocaleString("en-US", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }) + " UTC";

export function emailChangeCodeEmail(data: { code: string }): RenderedEmail {
  if (!/^\d{6}$/.test(data.code)) throw new Error("verification code must be 6 digits");
  return layout("email-change-code", `Your ${BRAND_NAME} verification code`, "Confirm your new e-mail address", [
    { kind: "p", text: `Use this code to make this the e-mail address of your ${BRAND_NAME} account:` },
    { kind: "code", text: data.code },
    { kind: "p", text: `The code is valid for ${VERIFICATION_CODE_VALID_MINUTES} minutes and can be used once.` },
    {
      kind: "small",
      text: "If you did not ask to change the e-mail address of an account, ignore this e-mail: nothing changes without the code. Never share this code with anyone; we will never ask you for it.",
    },
  ]);
}

export function emailChangedEmail(data: { name: string; newEmail: string; changedAt: Date; baseUrl: string }): RenderedEmail {
  return layout("email-changed", `Your ${BRAND_NAME} e-mail address was changed`, "Your e-mail address was changed", [
    greeting(data.name),
    {
      kind: "p",
      text: `The e-mail address of your ${BRAND_NAME} account was changed on ${when(data.changedAt)} to ${data.newEmail}. This address will no longer receive e-mail about your account.`,
    },
    { kind: "p", text: `If you made this change, no action is needed. If you did not, contact us at once at ${site.phone.display} or ${site.email}.` },
    pageButton("Contact us", data.baseUrl, "/contact"),
  ]);
}
