import type { Toast } from "~/domain/action-result";
import { USER_ROLES } from "~/domain/enums";
import { STAFF_ROLE_LABELS, type StaffRole } from "~/domain/staff-permissions";
import {
  CONTROL_CHARACTER_MESSAGE,
  hasNoControlCharacters,
} from "./text-rules";
import { PASSWORD_MESSAGES, passwordSchema } from "./password";
import { z } from "./zod";

/**
 * The Staff page's forms (/admin/staff) and the invitation page's Set Password form
 * (/auth/invite/:token): one schema per form, used by the browser and by the actions (the authority).
 * Every post names its `intent`; the action picks the schema by it, so an unknown intent is a 400.
 */

export const STAFF_INTENTS = [
  "invite",
  "change-role",
  "deactivate",
  "reset-mfa",
  "cancel-invitation",
] as const;
export type StaffIntent = (typeof STAFF_INTENTS)[number];

export const STAFF_NAME_MAX_LENGTH = 100;
export const STAFF_EMAIL_MAX_LENGTH = 254;

export const STAFF_MESSAGES = {
  intent: "Unknown action.",
  nameRequired: "Enter the staff member's full name",
  nameTooLong: `The name must be at most ${STAFF_NAME_MAX_LENGTH} characters`,
  emailRequired: "Enter the staff member's e-mail address",
  emailInvalid: "Please enter a valid email address",
  roleRequired: "Choose a role: Admin, Loan Officer or Auditor",
  unknownStaff: "This staff member does not exist.",
  unknownInvitation: "This invitation does not exist.",
  accountExists:
    "An account with this e-mail address already exists. Staff invitations are for new accounts only.",
  lastAdmin:
    "The last active admin cannot be removed or demoted. Make another staff member an admin first.",
  ownDeactivate: "You cannot deactivate your own account.",
  ownReset:
    "You cannot reset your own second factor. Another admin must do it.",
  alreadyDeactivated: "This staff member is already deactivated.",
  sameRole: "This staff member already has that role.",
  invitationClosed: "This invitation was already accepted or cancelled.",
  busy: "Another change to this invitation happened at the same moment. Please try again.",
  confirmPassword: "Passwords don't match",
  linkInvalid: "This invitation link has expired or was already used.",
} as const;

const singleLine = (required: string, max: number, tooLong: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(max, tooLong)
    .refine(hasNoControlCharacters, CONTROL_CHARACTER_MESSAGE)
    // A name or address is one line: a line break would also break an e-mail header.
    .refine((v) => !/[\r\n\t]/.test(v), CONTROL_CHARACTER_MESSAGE);

export const staffRoleSchema = z.enum(USER_ROLES, {
  error: STAFF_MESSAGES.roleRequired,
});

/** A staff member's id: Better Auth's ids are 32 letters and digits; anything else is refused before any query. */
const userId = z
  .string({ error: STAFF_MESSAGES.unknownStaff })
  .regex(/^[A-Za-z0-9_-]{1,64}$/, STAFF_MESSAGES.unknownStaff);

export const inviteStaffSchema = z.object({
  intent: z.literal("invite"),
  name: singleLine(
    STAFF_MESSAGES.nameRequired,
    STAFF_NAME_MAX_LENGTH,
    STAFF_MESSAGES.nameTooLong,
  ),
  email: singleLine(
    STAFF_MESSAGES.emailRequired,
    STAFF_EMAIL_MAX_LENGTH,
    STAFF_MESSAGES.emailInvalid,
  )
    .pipe(z.email(STAFF_MESSAGES.emailInvalid))
    .transform((v) => v.toLowerCase()),
  role: staffRoleSchema,
});

export const changeRoleSchema = z.object({
  intent: z.literal("change-role"),
  userId,
  role: staffRoleSchema,
});
export const deactivateSchema = z.object({
  intent: z.literal("deactivate"),
  userId,
});
export const resetMfaSchema = z.object({
  intent: z.literal("reset-mfa"),
  userId,
});
export const cancelInvitationSchema = z.object({
  intent: z.literal("cancel-invitation"),
  invitationId: z.uuid(STAFF_MESSAGES.unknownInvitation),
});

/** The schema for each intent (the action reads the intent first, then validates the rest). */
export const STAFF_SCHEMAS = {
  invite: inviteStaffSchema,
  "change-role": changeRoleSchema,
  deactivate: deactivateSchema,
  "reset-mfa": resetMfaSchema,
  "cancel-invitation": cancelInvitationSchema,
} as const;

export type StaffCommand =
  | z.output<typeof inviteStaffSchema>
  | z.output<typeof changeRoleSchema>
  | z.output<typeof deactivateSchema>
  | z.output<typeof resetMfaSchema>
  | z.output<typeof cancelInvitationSchema>;

/** The role choices in the order the forms list them. */
export const STAFF_ROLE_OPTIONS = USER_ROLES.map((role) => ({
  value: role,
  label: STAFF_ROLE_LABELS[role],
}));

/** Set Password on the invitation page: the account's password rules, typed twice. */
export const acceptInvitationSchema = z
  .object({
    password: passwordSchema,
    confirmPassword: z.string({ error: STAFF_MESSAGES.confirmPassword }),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: STAFF_MESSAGES.confirmPassword,
    path: ["confirmPassword"],
  });

export { PASSWORD_MESSAGES };

/** What the Staff page's action answers: the toast (stamped so two equal answers each show), the intent, field errors. */
export type StaffActionData = {
  ok: boolean;
  intent: StaffIntent | null;
  toast: Toast;
  at: number;
  fieldErrors?: Record<string, string[]>;
};

/** What the invitation page's action answers when it refuses (success is a redirect). */
export type AcceptInvitationActionData = {
  ok: false;
  toast: Toast;
  fieldErrors?: Record<string, string[]>;
};

/** The Staff page's list (dates as ISO strings: it crosses to the browser). */
export type StaffMember = {
  userId: string;
  name: string;
  email: string;
  role: StaffRole;
  deactivatedAt: string | null;
  mfaEnrolled: boolean;
};

export type PendingInvitation = {
  id: string;
  name: string;
  email: string;
  role: StaffRole;
  expiresAt: string;
  expired: boolean;
};

export type StaffOverview = {
  members: StaffMember[];
  invitations: PendingInvitation[];
};
