import { meetsCharacterClasses, PASSWORD_MAX_LENGTH, PASSWORD_MESSAGES, PASSWORD_MIN_LENGTH } from "./password-rules";
import { z } from "./zod";

/**
 * Password strength rules (docs/requirements.md §6, §10), shared by the browser (live hints, instant messages)
 * and the server (the actions validate again). Pure: no I/O. The breached-password check is separate
 * (app/server/platform/security/breached-password.server.ts) because it calls an external service.
 */

// The rules without Zod (the live checklist's) are in ./password-rules, for pages that need no schema
// (decision 0052).
export {
  checkPasswordRules,
  describePasswordRules,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MESSAGES,
  PASSWORD_MIN_LENGTH,
  PASSWORD_RULES,
  PASSWORD_RULES_MESSAGE,
  PASSWORD_SPECIAL_CHARACTERS,
  type PasswordRule,
} from "./password-rules";

/**
 * The strength rules as one schema. A password missing several character classes gets one message
 * (the spec's), not one per class; length problems get their own short message.
 */
export const passwordSchema = z
  .string({ error: PASSWORD_MESSAGES.tooShort })
  .min(PASSWORD_MIN_LENGTH, PASSWORD_MESSAGES.tooShort)
  .max(PASSWORD_MAX_LENGTH, PASSWORD_MESSAGES.tooLong)
  .refine(meetsCharacterClasses, {
    message: PASSWORD_MESSAGES.characterClasses,
  });

/** The first problem with a password, or null when it meets every rule (for a toast or a field error). */
export function passwordProblem(password: string): string | null {
  const result = passwordSchema.safeParse(password);
  return result.success ? null : (result.error.issues[0]?.message ?? PASSWORD_MESSAGES.characterClasses);
}
