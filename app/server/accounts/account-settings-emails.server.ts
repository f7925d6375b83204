import { formatMoment } from "~/domain/formats";
import { site } from "~/content/site";
import { BRAND_NAME, greeting, layout, pageButton, type RenderedEmail } from "~/server/platform/mail/email-layout.server";
import { VERIFICATION_CODE_VALID_MINUTES } from "~/server/platform/mail/templates.server";

/**
 * Change Email: the code goes to the NEW address (proving it is theirs); the OLD address is
 * told of the change without any code or link that could undo or take over anything.
 */

const when = (d: Date) => formatMoment(d);

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

/**
 * To the OLD address after a change. It never names the new address: the old inbox may be read by
 * someone else (that is often why an address changes), and the new address would tell them where to aim.
 */
export function emailChangedEmail(data: { name: string; changedAt: Date; baseUrl: string }): RenderedEmail {
  return layout("email-changed", `Your ${BRAND_NAME} e-mail address was changed`, "Your e-mail address was changed", [
    greeting(data.name),
    {
      kind: "p",
      text: `The e-mail address of your ${BRAND_NAME} account was changed on ${when(data.changedAt)}. This address will no longer receive e-mail about your account, and any password reset link sent to it no longer works.`,
    },
    { kind: "p", text: "If you made this change, no action is needed." },
    {
      kind: "p",
      text: `If you did not, call us at once at ${site.phone.display} (or write to ${site.email} from this address) and we will help you get back into your account and put it right. We will ask you to prove who you are; we will never ask for your password.`,
    },
    pageButton("Contact us", data.baseUrl, "/contact"),
  ]);
}


/**
 * To the owner when a passkey is added: a passkey signs in without the password (and, verified with a
 * PIN or biometrics, stands in for the second factor), so one the owner did not add must not go unseen.
 */
export function passkeyAddedEmail(data: { name: string; passkeyName: string; addedAt: Date; baseUrl: string }): RenderedEmail {
  return layout("passkey-added", `A passkey was added to your ${BRAND_NAME} account`, "A passkey was added to your account", [
    greeting(data.name),
    { kind: "p", text: `A passkey named “${data.passkeyName}” was added to your ${BRAND_NAME} account on ${when(data.addedAt)}. It can sign in to your account without your password.` },
    { kind: "p", text: "If you added it, no action is needed." },
    {
      kind: "p",
      text: `If you did not, sign in, remove it under Passkeys on your account page and change your password, then call us at ${site.phone.display} or write to ${site.email}.`,
    },
    pageButton("Review your passkeys", data.baseUrl, "/account"),
  ]);
}
