import { ACCOUNT_VALIDATION_METHODS, type AccountValidationMethod } from "~/domain/servicing-enums";
import { writtenText } from "./text-fields";
import { z } from "./zod";

/**
 * Record Validation (the staff loan page): a bank account validated another way than a prenote, with the
 * method and its reference (the verification service's id, the letter's date and signer…). One schema
 * for the page's form and the server. Pure, safe in the browser.
 */

export const RECORD_VALIDATION_INTENT = "record-validation";

/** The methods staff record: every method but the prenote, which only an ACH file makes. */
export const STAFF_VALIDATION_METHODS = ACCOUNT_VALIDATION_METHODS.filter((m): m is Exclude<AccountValidationMethod, "prenote"> => m !== "prenote") as [
  Exclude<AccountValidationMethod, "prenote">,
  ...Exclude<AccountValidationMethod, "prenote">[],
];

export const ACCOUNT_VALIDATION_LIMITS = { referenceMinLength: 3, referenceMaxLength: 100 } as const;

export const ACCOUNT_VALIDATION_MESSAGES = {
  bankAccountId: "This bank account is not the loan's payment account.",
  accountChanged: "The loan's payment account changed since the page was loaded. Reload the page and check the new account.",
  loanNotFound: "This loan does not exist.",
  failedTitle: "Validation Not Recorded",
  recordedTitle: "Account Validated",
  method: "Choose how the account was validated.",
  referenceRequired: "Enter the validation's reference (at least 3 characters).",
  referenceTooLong: `The reference must be at most ${ACCOUNT_VALIDATION_LIMITS.referenceMaxLength} characters.`,
  alreadyValidated: "This bank account is already validated.",
  changed: "This bank account's validation changed since the page was loaded. Reload the page and check it again.",
  noAccount: "The loan has no bank account on file to validate.",
  prenoteNotFound: "This prenote does not exist.",
  prenoteNotReturnable: "Only a prenote sent in an ACH file can be marked returned.",
  returnBeforeEffective: "A prenote cannot come back before its file's effective date.",
  returnInFuture: "The return date cannot be in the future.",
} as const;

export const recordValidationSchema = z.object({
  intent: z.literal(RECORD_VALIDATION_INTENT),
  bankAccountId: z.string({ error: ACCOUNT_VALIDATION_MESSAGES.bankAccountId }).uuid(ACCOUNT_VALIDATION_MESSAGES.bankAccountId),
  method: z.enum(STAFF_VALIDATION_METHODS, { error: ACCOUNT_VALIDATION_MESSAGES.method }),
  reference: writtenText({
    max: ACCOUNT_VALIDATION_LIMITS.referenceMaxLength,
    tooLong: ACCOUNT_VALIDATION_MESSAGES.referenceTooLong,
    required: ACCOUNT_VALIDATION_MESSAGES.referenceRequired,
  }).pipe(z.string().min(ACCOUNT_VALIDATION_LIMITS.referenceMinLength, ACCOUNT_VALIDATION_MESSAGES.referenceRequired)),
});
export type RecordValidationInput = z.infer<typeof recordValidationSchema>;

/** What Record Validation answers the page: the toast (stamped), the field messages, the intent. */
export type AccountValidationActionData = { ok: boolean; intent: typeof RECORD_VALIDATION_INTENT; toast: { type: "success" | "error" | "info"; title: string; description?: string }; at: number; fieldErrors?: Record<string, string[]> };
