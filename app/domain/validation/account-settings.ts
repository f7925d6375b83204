import type { ActionResult, Toast } from "~/domain/action-result";
import { APPLICATION_MESSAGES } from "./application-constants";
import { AUTH_MESSAGES, emailAddressSchema, fullNameSchema } from "./auth";
import { PASSWORD_MAX_LENGTH, passwordSchema } from "./password";
import type { AccountSettingsIntent } from "./account-constants";
import { intentMessages } from "./confirm-intent";
import { z } from "./zod";

/**
 * Account settings on /account: the forms of the profile, Change Email, Change Password,
 * Active Sessions and Notification Preferences sections. Each posts to /account/settings with its
 * intent; one schema per form, used by the browser and by the server.
 */

// The intents and each form's fields are in ./account-constants, without Zod: /account loads these
// schemas after it has started (decision 0052).
export { ACCOUNT_SETTINGS_FIELDS, ACCOUNT_SETTINGS_INTENTS, type AccountSettingsIntent } from "./account-constants";

/** Applicant-only: staff accounts are the lender's (their name, e-mail and mail are managed by an admin). */
export const APPLICANT_ONLY_INTENTS: readonly AccountSettingsIntent[] = ["update-profile", "request-email-change", "confirm-email-change", "update-notifications"];

export const ACCOUNT_SETTINGS_MESSAGES = intentMessages({
  staffRefused: "Staff accounts change this through an administrator.",
  currentPassword: "Enter your current password.",
  wrongPassword: "The password is not correct.",
  sameEmail: "This is already your email address.",
  emailTaken: "This email address is already used by another account.",
  code: "Enter the 6-digit code we sent to your new address.",
  invalidCode: AUTH_MESSAGES.invalidCode,
  noPendingChange: "There is no email change waiting for a code. Request a new code.",
  passwordsDontMatch: AUTH_MESSAGES.passwordsDontMatch,
  samePassword: "Choose a password different from your current one.",
  passwordChangedMeanwhile: "Your password was changed a moment ago. Please try again.",
  emailChangedMeanwhile: "Your email address changed a moment ago. Request a new code.",
  phone: APPLICATION_MESSAGES.phone,
});

const currentPassword = z
  .string({ error: ACCOUNT_SETTINGS_MESSAGES.currentPassword })
  .min(1, ACCOUNT_SETTINGS_MESSAGES.currentPassword)
  // Not trimmed: a password is compared as typed. The bound only refuses absurd bodies.
  .max(PASSWORD_MAX_LENGTH, ACCOUNT_SETTINGS_MESSAGES.wrongPassword);

/** Optional; when given, 10 US digits (as the application's Phone Number), stored as digits. */
const phone = z
  .string()
  .trim()
  .max(20, ACCOUNT_SETTINGS_MESSAGES.phone)
  .transform((v) => v.replace(/\D/g, ""))
  .transform((v) => (v.length === 11 && v.startsWith("1") ? v.slice(1) : v))
  .refine((v) => v.length === 0 || v.length === 10, ACCOUNT_SETTINGS_MESSAGES.phone)
  .transform((v) => (v.length === 0 ? null : v));

export const updateProfileSchema = z.object({
  intent: z.literal("update-profile"),
  fullName: fullNameSchema,
  phone: z.preprocess((v) => v ?? "", phone),
});

export const requestEmailChangeSchema = z.object({
  intent: z.literal("request-email-change"),
  newEmail: z.string({ error: AUTH_MESSAGES.emailRequired }).trim().min(1, AUTH_MESSAGES.emailRequired).pipe(emailAddressSchema),
  currentPassword,
});

export const confirmEmailChangeSchema = z.object({
  intent: z.literal("confirm-email-change"),
  code: z.string({ error: ACCOUNT_SETTINGS_MESSAGES.code }).trim().min(1, ACCOUNT_SETTINGS_MESSAGES.code).regex(/^\d{6}$/, ACCOUNT_SETTINGS_MESSAGES.invalidCode),
});

/** A checkbox: present ("on") when ticked, absent when not; anything else is not our form. */
const checkbox = z.preprocess((v) => v ?? "", z.enum(["", "on"], { error: "Unknown value." })).transform((v) => v === "on");

export const changePasswordSchema = z
  .object({
    intent: z.literal("change-password"),
    currentPassword,
    newPassword: z.string({ error: AUTH_MESSAGES.fillAllFields }).min(1, AUTH_MESSAGES.fillAllFields).pipe(passwordSchema),
    confirmPassword: z.string({ error: AUTH_MESSAGES.fillAllFields }).min(1, AUTH_MESSAGES.fillAllFields),
    // The form lists the account's passkeys and offers this: a passkey is not touched by a new password,
    // so after a suspected compromise the owner removes them in the same step.
    removePasskeys: checkbox,
  })
  .refine((v) => v.newPassword === v.confirmPassword, { message: ACCOUNT_SETTINGS_MESSAGES.passwordsDontMatch, path: ["confirmPassword"] })
  .refine((v) => v.newPassword !== v.currentPassword, { message: ACCOUNT_SETTINGS_MESSAGES.samePassword, path: ["newPassword"] });

/** The password again: a stolen session alone must not sign the owner out everywhere else. */
export const revokeOtherSessionsSchema = z.object({ intent: z.literal("revoke-other-sessions"), currentPassword });

export const updateNotificationsSchema = z.object({
  intent: z.literal("update-notifications"),
  paymentReminders: checkbox,
  productNews: checkbox,
});

export const ACCOUNT_SETTINGS_SCHEMAS = {
  "update-profile": updateProfileSchema,
  "request-email-change": requestEmailChangeSchema,
  "confirm-email-change": confirmEmailChangeSchema,
  "change-password": changePasswordSchema,
  "revoke-other-sessions": revokeOtherSessionsSchema,
  "update-notifications": updateNotificationsSchema,
} as const satisfies Record<AccountSettingsIntent, z.ZodType>;

export type AccountSettingsInput<I extends AccountSettingsIntent> = z.output<(typeof ACCOUNT_SETTINGS_SCHEMAS)[I]>;

export const ACCOUNT_SETTINGS_TOASTS = {
  "update-profile": { type: "success", title: "Profile Updated", description: "Your name and phone number are saved." },
  "request-email-change": { type: "success", title: "Verification Code Sent", description: "We sent a 6-digit code to your new address. It expires in 10 minutes." },
  "confirm-email-change": { type: "success", title: "Email Changed", description: "Sign in with your new address from now on. We told your old address about the change." },
  "change-password": { type: "success", title: "Password Changed", description: "Your other sessions were signed out." },
  "revoke-other-sessions": { type: "success", title: "Signed Out Other Sessions", description: "Every other device was signed out." },
  "update-notifications": { type: "success", title: "Preferences Saved", description: "Your e-mail preferences are saved." },
} as const satisfies Record<AccountSettingsIntent, Toast>;

export const ACCOUNT_SETTINGS_FAILED = {
  "update-profile": "Could not update your profile",
  "request-email-change": "Could not send the code",
  "confirm-email-change": "Could not change your email",
  "change-password": "Could not change your password",
  "revoke-other-sessions": "Could not sign out other sessions",
  "update-notifications": "Could not save your preferences",
} as const satisfies Record<AccountSettingsIntent, string>;

/** What /account/settings answers (JSON). */
export type AccountSettingsActionData = ActionResult<{ intent: AccountSettingsIntent | null; toast: Toast; at: number }>;
