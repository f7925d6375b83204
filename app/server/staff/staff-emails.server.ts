import { formatMoment } from "~/domain/formats";

import { STAFF_ROLE_LABELS, type StaffRole } from "~/domain/staff-permissions";
import {
  BRAND_NAME,
  greeting,
  layout,
  type RenderedEmail,
} from "~/server/platform/mail/email-layout.server";

/**
 * To a new staff member: the invitation link (valid 72 hours, used once) with who invited
 * them and the role. The link is the only copy of the token (the database keeps its SHA-256), so
 * this e-mail is the one place it exists.
 */
export function staffInvitationEmail(data: {
  name: string;
  role: StaffRole;
  invitedBy: string;
  link: string;
  expiresAt: Date;
}): RenderedEmail {
  const expires = formatMoment(data.expiresAt);
  return layout(
    "staff-invitation",
    `You are invited to the ${BRAND_NAME} staff`,
    "Join the staff",
    [
      greeting(data.name),
      {
        kind: "p",
        text: `${data.invitedBy} invited you to the ${BRAND_NAME} administration as ${STAFF_ROLE_LABELS[data.role]}.`,
      },
      {
        kind: "p",
        text: "Open the link below to set your password. You will then set up two-factor authentication with an authenticator app before you can open any staff page.",
      },
      { kind: "button", label: "Accept the invitation", url: data.link },
      { kind: "fields", rows: [["Link valid until", expires]] },
      {
        kind: "small",
        text: "The link works once. If you did not expect this invitation, ignore this e-mail.",
      },
    ],
  );
}
