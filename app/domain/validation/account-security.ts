import type { ActionResult, Toast } from "~/domain/action-result";
import { hasNoControlCharacters } from "./text-rules";
import { intentMessages } from "./confirm-intent";
import { z } from "./zod";

/**
 * Two-Factor Authentication and Passkeys. The account page's security section posts to
 * /account/security, the sign-in page and the second-factor pages to /auth/passkey, and the
 * two-factor page to /auth/two-factor. One schema per form, shared by the browser and the server.
 */

/** The intents /account/security answers (the authorization matrix walks them). */
export const ACCOUNT_SECURITY_INTENTS = ["totp-start", "totp-enable", "totp-disable", "backup-codes", "passkey-options", "passkey-add", "passkey-remove"] as const;
export type AccountSecurityIntent = (typeof ACCOUNT_SECURITY_INTENTS)[number];

/** The intents /auth/passkey answers: a usernameless sign-in, or a signed-in session's second factor. */
export const PASSKEY_INTENTS = ["sign-in-options", "sign-in", "second-factor-options", "second-factor"] as const;
export type PasskeyIntent = (typeof PASSKEY_INTENTS)[number];

export const SECURITY_MESSAGES = intentMessages({
  code: "Enter the 6-digit code from your authenticator app.",
  codeOrBackup: "Enter the 6-digit code from your authenticator app, or a backup code.",
  proof: "Enter a current code or your password.",
  passkeyProof: "To add a passkey, enter your password (or a current code from your authenticator app, if two-factor authentication is on).",
  passkeyCodeWithoutTotp: "Two-factor authentication is not on: enter your password instead.",
  passkeyName: "Name this passkey (1 to 60 characters, for example “Work laptop”).",
  passkeyId: "Choose a passkey.",
  credential: "Your browser's passkey answer could not be read. Please try again.",
  passkeyUnknown: "This passkey is not registered with us. Sign in with your password, or use another passkey.",
  passkeyRefused: "The passkey could not be verified. Please try again.",
  passkeyNeedsVerification: "This passkey did not verify it was you (PIN or biometrics). Use a code, or a passkey that asks for your PIN or fingerprint.",
  challengeUsed: "This passkey request has expired or was already used. Please try again.",
  duplicatePasskey: "This passkey is already registered.",
  tooManyPasskeys: "You have the most passkeys an account may hold (10). Remove one first.",
  passkeyNotFound: "That passkey was not found.",
  wrongPassword: "The password is not correct.",
  staffTotp: "Staff manage their authenticator on the admin two-factor page.",
});

const code = z
  .string({ error: SECURITY_MESSAGES.code })
  .trim()
  .regex(/^\d{6}$/, SECURITY_MESSAGES.code);
const codeOrBackup = z
  .string({ error: SECURITY_MESSAGES.codeOrBackup })
  .trim()
  .min(6, SECURITY_MESSAGES.codeOrBackup)
  .max(20, SECURITY_MESSAGES.codeOrBackup)
  .regex(/^[A-Za-z0-9 -]+$/, SECURITY_MESSAGES.codeOrBackup);

export const totpStartSchema = z.object({ intent: z.literal("totp-start") });
export const totpEnableSchema = z.object({ intent: z.literal("totp-enable"), code });
export const backupCodesSchema = z.object({ intent: z.literal("backup-codes"), code });

/** Turning the factor off: a current code (or backup code), or the password. */
export const totpDisableSchema = z
  .object({
    intent: z.literal("totp-disable"),
    code: z.string().trim().max(20, SECURITY_MESSAGES.codeOrBackup).optional(),
    // Not trimmed: a password is compared as typed.
    password: z.string().max(256, SECURITY_MESSAGES.wrongPassword).optional(),
  })
  .superRefine((value, ctx) => {
    if (!value.code && !value.password) ctx.addIssue({ code: "custom", path: ["code"], message: SECURITY_MESSAGES.proof });
    if (value.code && !codeOrBackup.safeParse(value.code).success) ctx.addIssue({ code: "custom", path: ["code"], message: SECURITY_MESSAGES.codeOrBackup });
  });

export const passkeyNameSchema = z
  .string({ error: SECURITY_MESSAGES.passkeyName })
  .trim()
  .min(1, SECURITY_MESSAGES.passkeyName)
  .max(60, SECURITY_MESSAGES.passkeyName)
  // Control characters never reach the database (a name is shown back in lists and audit details).
  .refine(hasNoControlCharacters, SECURITY_MESSAGES.passkeyName);

/**
 * The browser's WebAuthn answer, as @simplewebauthn/browser hands it over (base64url fields). Only its
 * shape is checked here; the server verifies every byte. Bounded: a real answer is a few kilobytes.
 */
const b64url = z.string().max(8192).regex(/^[A-Za-z0-9_-]*$/);
export const credentialSchema = z.object({
  id: b64url.min(1),
  rawId: b64url.min(1),
  type: z.literal("public-key"),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  response: z.object({
    clientDataJSON: b64url.min(1),
    attestationObject: b64url.optional(),
    authenticatorData: b64url.optional(),
    signature: b64url.optional(),
    userHandle: b64url.optional(),
    transports: z.array(z.string().max(32)).max(10).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: b64url.optional(),
  }),
});
export type CredentialInput = z.output<typeof credentialSchema>;

/** A credential travels as one form field holding its JSON. */
export const credentialField = z
  .string({ error: SECURITY_MESSAGES.credential })
  .max(16_384, SECURITY_MESSAGES.credential)
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: SECURITY_MESSAGES.credential });
      return z.NEVER;
    }
  })
  .pipe(credentialSchema);

/**
 * Add Passkey, step 1, asks for a fresh proof: the password, or a current authenticator code when
 * two-factor authentication is on. A signed-in browser alone (borrowed, or a stolen session) must not
 * be able to plant a passkey that then signs in without the password.
 */
export const passkeyOptionsSchema = z
  .object({
    intent: z.literal("passkey-options"),
    // Not trimmed: a password is compared as typed.
    password: z.string().max(256, SECURITY_MESSAGES.wrongPassword).optional(),
    code: z.string().trim().max(20, SECURITY_MESSAGES.code).optional(),
  })
  .superRefine((value, ctx) => {
    if (!value.code && !value.password) ctx.addIssue({ code: "custom", path: ["password"], message: SECURITY_MESSAGES.passkeyProof });
    if (value.code && !/^\d{6}$/.test(value.code)) ctx.addIssue({ code: "custom", path: ["code"], message: SECURITY_MESSAGES.code });
  });
export const passkeyAddSchema = z.object({ intent: z.literal("passkey-add"), name: passkeyNameSchema, credential: credentialField });
export const passkeyRemoveSchema = z.object({ intent: z.literal("passkey-remove"), passkeyId: z.uuid({ error: SECURITY_MESSAGES.passkeyId }) });

/** /auth/passkey: options carry no input; the answers carry the credential (and where to go next). */
export const passkeyOptionsRequestSchema = z.object({ intent: z.enum(["sign-in-options", "second-factor-options"]) });
export const passkeyAnswerSchema = z.object({
  intent: z.enum(["sign-in", "second-factor"]),
  credential: credentialField,
  redirectTo: z.string().max(2048).optional(),
});

/** /auth/two-factor's form: a code or a backup code. */
export const twoFactorSchema = z.object({ code: codeOrBackup, redirectTo: z.string().max(2048).optional() });

export const SECURITY_TOASTS = {
  totpOn: { type: "success", title: "Two-factor authentication is on", description: "Save your backup codes: they are shown only once." },
  totpOff: { type: "success", title: "Two-factor authentication is off" },
  backupCodes: { type: "success", title: "New backup codes", description: "Your old backup codes no longer work." },
  passkeyAdded: { type: "success", title: "Passkey added" },
  passkeyRemoved: { type: "success", title: "Passkey removed" },
} as const satisfies Record<string, Toast>;

/** What /account/security answers (JSON). Only the intent that produced them fills the optional parts. */
export type AccountSecurityActionData = ActionResult<{
  intent: AccountSecurityIntent | null;
  toast: Toast;
  at: number;
  /** totp-start: the new secret (manual key) and its QR code, for the owner's own screen. */
  enrolment?: { secret: string; qrDataUrl: string };
  /** totp-enable, backup-codes: the ten one-time codes, shown once. */
  backupCodes?: string[];
  /** passkey-options: the WebAuthn creation options for the browser. */
  options?: unknown;
}>;

/** What /auth/passkey answers (JSON): options for the browser, or where to go once signed in. */
export type PasskeyActionData = { ok: true; options?: unknown; redirectTo?: string } | { ok: false; message: string };

/** The toast after a verified second factor (staff or applicant): a used backup code is pointed out, since each works once. */
export function identityVerifiedToast(usedBackupCode: boolean | undefined, welcome: string): Toast {
  return { type: "success", title: "Identity Verified", description: usedBackupCode ? "You used a backup code; each works only once." : welcome };
}
