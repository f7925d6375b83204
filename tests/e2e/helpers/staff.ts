import type { StaffRole } from "~/domain/staff-permissions";
import type { SmtpSink } from "../../helpers/smtp-sink";
import { mark, waitForMail } from "./mailbox";

/**
 * Staff invitations over HTTP (issue 22): an admin posts Invite Staff on /admin/staff, and the link is
 * read from the e-mail the SMTP sink caught. The link's origin is PUBLIC_URL, which in tests is not the
 * server's random port, so only its path is returned (join it to the server's URL).
 */

export type Invitation = { path: string; token: string };

/** The /auth/invite/<token> path in an invitation e-mail. */
export function invitationPathIn(text: string): Invitation {
  const match = /\/auth\/invite\/([A-Za-z0-9_-]{43})/.exec(text);
  if (!match) throw new Error(`No invitation link in:\n${text}`);
  return { path: match[0], token: match[1]! };
}

/** Invites `who` as `adminCookie` (an admin with a verified second factor) and waits for the e-mail. */
export async function inviteStaffOverHttp(
  base: string,
  sink: SmtpSink,
  adminCookie: string,
  who: { name: string; email: string; role: StaffRole },
): Promise<Invitation> {
  const after = mark(sink);
  const res = await fetch(`${base}/admin/staff`, {
    method: "POST",
    body: new URLSearchParams({ intent: "invite", ...who }),
    headers: { cookie: adminCookie, origin: base },
    redirect: "manual",
  });
  if (res.status !== 200) throw new Error(`Invite Staff failed for ${who.email}: ${res.status} ${await res.text()}`);
  const mail = await waitForMail(sink, { to: who.email, subject: /invited/i, after });
  return invitationPathIn(mail.text);
}

/** Sets the password through the link; returns the new staff member's session cookie (second factor still to enrol). */
export async function acceptInvitationOverHttp(base: string, invitation: Invitation, password: string): Promise<string> {
  const res = await fetch(`${base}${invitation.path}`, {
    method: "POST",
    body: new URLSearchParams({ password, confirmPassword: password }),
    headers: { origin: base },
    redirect: "manual",
  });
  if (res.status !== 302 || res.headers.get("location") !== "/admin/mfa") throw new Error(`Set Password failed: ${res.status}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .filter((c) => c.includes("session_token"))
    .join("; ");
}
