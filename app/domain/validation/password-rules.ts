/**
 * The password strength rules without Zod (docs/requirements.md §6, §10): the live checklist's, which
 * /account and /auth draw while they start. ./password builds the schema from them (decision 0052).
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

/** Whether a password has every character class the spec asks for (length is checked on its own). */
export const meetsCharacterClasses = (v: string) => hasUppercase(v) && hasLowercase(v) && hasDigit(v) && hasSpecial(v);

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
