import { z } from "./zod";

/**
 * Password strength rules (docs/requirements.md §6, §10), shared by the browser (live hints, instant messages)
 * and the server (the actions validate again). Pure: no I/O. The breached-password check is separate
 * (app/server/security/breached-password.server.ts) because it calls an external service.
 */

export const PASSWORD_MIN_LENGTH = 8;
/** Long enough for any passphrase, short enough that hashing a submitted value stays cheap. */
export const PASSWORD_MAX_LENGTH = 128;

/** Exactly the spec's set: !@#$%^&*(),.?":{}|<> */
export const PASSWORD_SPECIAL_CHARACTERS = '!@#$%^&*(),.?":{}|<>';

export const PASSWORD_MESSAGES = {
  tooShort: `Password must be at least ${PASSWORD_MIN_LENGTH} characters`,
  tooLong: `Password must be at most ${PASSWORD_MAX_LENGTH} characters`,
  /** The spec's message for any missing character class. */
  characterClasses: "Password must include uppercase, lowercase, number, and special character",
} as const;

/** The spec's character-class message on its own (what the "Weak Password" toast shows). */
export const PASSWORD_RULES_MESSAGE = PASSWORD_MESSAGES.characterClasses;

const hasUppercase = (v: string) => /[A-Z]/.test(v);
const hasLowercase = (v: string) => /[a-z]/.test(v);
const hasDigit = (v: string) => /[0-9]/.test(v);
const hasSpecial = (v: string) => /[!@#$%^&*(),.?":{}|<>]/.test(v);

export type PasswordRule = { id: "length" | "uppercase" | "lowercase" | "digit" | "special"; label: string; test: (password: string) => boolean };

/** The rules in the order the UI lists them; each `test` says whether a password meets it. */
export const PASSWORD_RULES: readonly PasswordRule[] = [
  { id: "length", label: `At least ${PASSWORD_MIN_LENGTH} characters`, test: (v) => v.length >= PASSWORD_MIN_LENGTH },
  { id: "uppercase", label: "An uppercase letter (A-Z)", test: hasUppercase },
  { id: "lowercase", label: "A lowercase letter (a-z)", test: hasLowercase },
  { id: "digit", label: "A number (0-9)", test: hasDigit },
  { id: "special", label: `A special character: ${PASSWORD_SPECIAL_CHARACTERS}`, test: hasSpecial },
];

/** Hint lines for the UI, e.g. under a password field: `describePasswordRules.map(...)`. */
export const describePasswordRules: readonly string[] = PASSWORD_RULES.map((r) => r.label);

/** Each rule with whether `password` meets it, for a live checklist. */
export function checkPasswordRules(password: string): { id: PasswordRule["id"]; label: string; met: boolean }[] {
  return PASSWORD_RULES.map((r) => ({ id: r.id, label: r.label, met: r.test(password) }));
}

/**
 * The strength rules as one schema. A password missing several character classes gets one message
 * (the spec's), not one per class; length problems get their own short message.
 */
export const passwordSchema = z
  .string({ error: PASSWORD_MESSAGES.tooShort })
  .min(PASSWORD_MIN_LENGTH, PASSWORD_MESSAGES.tooShort)
  .max(PASSWORD_MAX_LENGTH, PASSWORD_MESSAGES.tooLong)
  .refine((v) => hasUppercase(v) && hasLowercase(v) && hasDigit(v) && hasSpecial(v), {
    message: PASSWORD_MESSAGES.characterClasses,
  });

/** The first problem with a password, or null when it meets every rule (for a toast or a field error). */
export function passwordProblem(password: string): string | null {
  const result = passwordSchema.safeParse(password);
  return result.success ? null : (result.error.issues[0]?.message ?? PASSWORD_MESSAGES.characterClasses);
}
