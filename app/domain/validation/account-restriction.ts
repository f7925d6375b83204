import { writtenText } from "./text-fields";
import { z } from "./zod";

/**
 * Clear Restriction (the staff loan page): a bank account a return made unusable or blocked may be
 * debited again once staff say why (the bank confirmed the account reopened, the borrower authorised
 * debits again…). One schema for the page's form and the server. Pure, safe in the browser.
 */

export const CLEAR_RESTRICTION_INTENT = "clear-restriction";

export const ACCOUNT_RESTRICTION_LIMITS = { reasonMaxLength: 1000 } as const;

export const ACCOUNT_RESTRICTION_MESSAGES = {
  bankAccountId: "This bank account is not one this loan uses.",
  reasonRequired: "Say why the account may be debited again (the reason is kept with the restriction).",
  reasonTooLong: `The reason must be at most ${ACCOUNT_RESTRICTION_LIMITS.reasonMaxLength} characters.`,
  alreadyCleared: "This account's restriction was already cleared (by someone else at the same time, or earlier).",
  notRestricted: "This bank account has no restriction to clear.",
} as const;

export const clearRestrictionSchema = z.object({
  intent: z.literal(CLEAR_RESTRICTION_INTENT),
  bankAccountId: z.string({ error: ACCOUNT_RESTRICTION_MESSAGES.bankAccountId }).uuid(ACCOUNT_RESTRICTION_MESSAGES.bankAccountId),
  reason: writtenText({ max: ACCOUNT_RESTRICTION_LIMITS.reasonMaxLength, tooLong: ACCOUNT_RESTRICTION_MESSAGES.reasonTooLong, required: ACCOUNT_RESTRICTION_MESSAGES.reasonRequired }),
});
export type ClearRestrictionInput = z.infer<typeof clearRestrictionSchema>;
