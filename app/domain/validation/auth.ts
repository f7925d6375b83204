import { z } from "./zod";
import { CONTROL_CHARACTER_MESSAGE, hasNoControlCharacters } from "./text-rules";
import { CAPTCHA_MESSAGES } from "./captcha-messages";
import { PASSWORD_MESSAGES, passwordSchema } from "./password";
import type { AuthIntent } from "../auth-action";

/**
 * The /auth forms, one schema each, used by the browser (instant messages) and by the actions.
 * Messages are the spec's (docs/requirements.md §6, §9).
 */

export const AUTH_MESSAGES = {
  fillAllFields: "Please fill in all fields",
  enterEmailAndPassword: "Please enter your email and password",
  invalidEmail: "Please enter a valid email address",
  verifyFirst: "Please verify your email before signing up",
  invalidCode: "The verification code is invalid or has expired",
  emailRequired: "Please enter your email address",
  passwordsDontMatch: "Passwords don't match",
  signInFailed: "Invalid email or password",
  codeSendFailed: "Unable to send verification code. Please try again.",
  resetSendFailed: "Unable to send reset email. Please try again.",
  resetLinkSpent: "This reset link has already been used or has expired. Enter your email to get a new one.",
} as const;

/** An empty field says only that it is empty, not also that its (missing) content is malformed. */
const present = (error: string) => ({ error, abort: true });

const email = z
  .string({ error: AUTH_MESSAGES.fillAllFields })
  .trim()
  .min(1, present(AUTH_MESSAGES.fillAllFields))
  .max(254, AUTH_MESSAGES.invalidEmail)
  .refine(hasNoControlCharacters, AUTH_MESSAGES.invalidEmail)
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, AUTH_MESSAGES.invalidEmail)
  .transform((v) => v.toLowerCase());

export const sendCodeSchema = z.object({
  email: z
    .string({ error: AUTH_MESSAGES.emailRequired })
    .trim()
    .min(1, present(AUTH_MESSAGES.emailRequired))
    .pipe(email),
});

/** A person's full name as sign-up takes it (the account settings' Full Name uses the same rule). */
export const fullNameSchema = z
  .string({ error: AUTH_MESSAGES.fillAllFields })
  .trim()
  .min(1, AUTH_MESSAGES.fillAllFields)
  .max(120, "Full name must be at most 120 characters")
  .refine(hasNoControlCharacters, CONTROL_CHARACTER_MESSAGE);

/** An e-mail address as sign-up takes it: trimmed, checked, lowercased. */
export const emailAddressSchema = email;

export const signUpSchema = z.object({
  fullName: fullNameSchema,
  email,
  code: z
    .string({ error: AUTH_MESSAGES.verifyFirst })
    .trim()
    .min(1, present(AUTH_MESSAGES.verifyFirst))
    .regex(/^\d{6}$/, AUTH_MESSAGES.invalidCode),
  password: z.string({ error: AUTH_MESSAGES.fillAllFields }).min(1, AUTH_MESSAGES.fillAllFields).pipe(passwordSchema),
});

export const signInSchema = z.object({
  email: z.string({ error: AUTH_MESSAGES.enterEmailAndPassword }).trim().min(1, present(AUTH_MESSAGES.enterEmailAndPassword)).pipe(email),
  password: z
    .string({ error: AUTH_MESSAGES.enterEmailAndPassword })
    .min(1, AUTH_MESSAGES.enterEmailAndPassword)
    .max(128, AUTH_MESSAGES.signInFailed),
});

export const resetRequestSchema = sendCodeSchema;

const resetToken = z
  .string()
  .trim()
  .min(1, "This reset link is invalid or has expired")
  .max(200)
  .refine(hasNoControlCharacters, "This reset link is invalid or has expired");

/** The page asks whether a reset link can still be used before it shows the new-password form. */
export const resetLinkSchema = z.object({ token: resetToken });

export const resetPasswordSchema = z
  .object({
    token: resetToken,
    password: z.string({ error: AUTH_MESSAGES.fillAllFields }).min(1, AUTH_MESSAGES.fillAllFields).pipe(passwordSchema),
    confirmPassword: z.string({ error: AUTH_MESSAGES.fillAllFields }).min(1, AUTH_MESSAGES.fillAllFields),
  })
  .refine((v) => v.password === v.confirmPassword, { message: AUTH_MESSAGES.passwordsDontMatch, path: ["confirmPassword"] });

export type SignUpInput = z.infer<typeof signUpSchema>;
export type SignInInput = z.infer<typeof signInSchema>;

/** The toast title for a form problem (the first message the schema or the page found). */
export function authProblemTitle(intent: AuthIntent, message: string): string {
  if (message === AUTH_MESSAGES.emailRequired) return "Email Required";
  if (message === AUTH_MESSAGES.fillAllFields || message === AUTH_MESSAGES.enterEmailAndPassword) return "Missing Information";
  if (message === AUTH_MESSAGES.verifyFirst) return "Verification Required";
  if (message === AUTH_MESSAGES.invalidCode) return "Invalid Code";
  if (message === AUTH_MESSAGES.passwordsDontMatch) return "Passwords Don't Match";
  if (message === PASSWORD_MESSAGES.characterClasses || /^Password must/.test(message)) return "Weak Password";
  if (message === CAPTCHA_MESSAGES.missing) return "Verification Required";
  if (intent === "sign-in") return "Sign In Failed";
  return "Error";
}
