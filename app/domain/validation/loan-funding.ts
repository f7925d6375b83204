import type { Toast } from "~/domain/action-result";
import { ACH_RETURN_CODES } from "~/domain/servicing-enums";
import { isRealDay } from "../dates";
import { CONTROL_CHARACTER_MESSAGE, hasNoControlCharacters } from "./text-rules";
import { writtenText } from "./text-fields";
import { z } from "./zod";

/**
 * The funding forms of the staff loan page (/admin/loans/:id): Fund Loan, Release Funds, Cancel
 * Funding, Mark Funds Settled, Mark Funds Returned, Cancel Loan, Record Fee Collected and Accept ID
 * Document. One schema per form, shared by the browser and the route's action (the authority);
 * dates are 'yyyy-MM-dd' not after `today` (UTC on the server).
 */

export const LOAN_FUNDING_INTENTS = ["fund-loan", "release-funds", "cancel-funding", "settle-funding", "return-funding", "cancel-loan", "record-fee-collected", "accept-id-document"] as const;
export type LoanFundingIntent = (typeof LOAN_FUNDING_INTENTS)[number];

export const LOAN_FUNDING_LIMITS = { reasonMinLength: 3, reasonMaxLength: 500, referenceMaxLength: 80 } as const;

export const LOAN_FUNDING_MESSAGES = {
  fingerprint: "This page is out of date. Reload it and check the Funding Checklist again.",
  settledOn: "Enter the day the credit settled (yyyy-MM-dd)",
  returnedOn: "Enter the day the credit was returned (yyyy-MM-dd)",
  inFuture: "The date cannot be in the future.",
  returnCode: "Choose the bank's return code",
  reasonRequired: "Give the reason for cancelling the loan",
  reasonTooShort: `The reason must be at least ${LOAN_FUNDING_LIMITS.reasonMinLength} characters`,
  reasonTooLong: `The reason must be at most ${LOAN_FUNDING_LIMITS.reasonMaxLength} characters`,
  referenceRequired: "Enter the reference of the fee's payment (check number, wire or ACH reference)",
  referenceTooLong: `The reference must be at most ${LOAN_FUNDING_LIMITS.referenceMaxLength} characters`,
  documentId: "This document does not exist.",
} as const;


function pastDay(message: string, today: string) {
  return z
    .string({ error: message })
    .transform((value) => value.trim())
    .pipe(
      z
        .string()
        .refine(isRealDay, message)
        .refine((value) => value <= today, LOAN_FUNDING_MESSAGES.inFuture),
    );
}

const RETURN_CODES = ACH_RETURN_CODES.map((c) => c.code) as [string, ...string[]];

export const fundLoanSchema = z.object({
  intent: z.literal("fund-loan"),
  /** The checklist the page showed (its sha256): the server refuses when it changed since. */
  fingerprint: z.string({ error: LOAN_FUNDING_MESSAGES.fingerprint }).regex(/^[0-9a-f]{64}$/, LOAN_FUNDING_MESSAGES.fingerprint),
});

export const releaseFundsSchema = z.object({ intent: z.literal("release-funds") });
export const cancelFundingSchema = z.object({ intent: z.literal("cancel-funding") });

export function settleFundingSchema(today: string) {
  return z.object({ intent: z.literal("settle-funding"), settledOn: pastDay(LOAN_FUNDING_MESSAGES.settledOn, today) });
}

export function returnFundingSchema(today: string) {
  return z.object({
    intent: z.literal("return-funding"),
    returnCode: z.enum(RETURN_CODES, { error: LOAN_FUNDING_MESSAGES.returnCode }),
    returnedOn: pastDay(LOAN_FUNDING_MESSAGES.returnedOn, today),
  });
}

export const cancelLoanSchema = z.object({
  intent: z.literal("cancel-loan"),
  reason: writtenText({ max: LOAN_FUNDING_LIMITS.reasonMaxLength, tooLong: LOAN_FUNDING_MESSAGES.reasonTooLong, required: LOAN_FUNDING_MESSAGES.reasonRequired }).refine(
    (value) => value.length >= LOAN_FUNDING_LIMITS.reasonMinLength,
    LOAN_FUNDING_MESSAGES.reasonTooShort,
  ),
});

export const recordFeeCollectedSchema = z.object({
  intent: z.literal("record-fee-collected"),
  reference: z
    .string({ error: LOAN_FUNDING_MESSAGES.referenceRequired })
    .transform((value) => value.trim())
    .pipe(
      z
        .string()
        .min(1, LOAN_FUNDING_MESSAGES.referenceRequired)
        .max(LOAN_FUNDING_LIMITS.referenceMaxLength, LOAN_FUNDING_MESSAGES.referenceTooLong)
        .refine(hasNoControlCharacters, CONTROL_CHARACTER_MESSAGE),
    ),
});

export const acceptIdDocumentSchema = z.object({ intent: z.literal("accept-id-document"), documentId: z.uuid({ error: LOAN_FUNDING_MESSAGES.documentId }) });

export const LOAN_FUNDING_FAILED: Record<LoanFundingIntent, string> = {
  "fund-loan": "Failed to fund the loan",
  "release-funds": "Failed to release the funds",
  "cancel-funding": "Failed to cancel the funding",
  "settle-funding": "Failed to mark the funds settled",
  "return-funding": "Failed to mark the funds returned",
  "cancel-loan": "Failed to cancel the loan",
  "record-fee-collected": "Failed to record the fee",
  "accept-id-document": "Failed to accept the ID document",
};

export const LOAN_FUNDING_TOASTS = {
  prepared: { type: "success", title: "Funding prepared", description: "The credit awaits another staff member's Release Funds." },
  released: { type: "success", title: "Loan funded", description: "The credit of the net proceeds goes in the next ACH file." },
  releasedByOther: { type: "success", title: "Funds released", description: "The credit goes in the next ACH file." },
  fundingCancelled: { type: "success", title: "Funding cancelled", description: "The credit was cancelled before it was sent." },
  settled: { type: "success", title: "Funds settled", description: "The loan is active; interest runs from the settlement date. The borrower was e-mailed." },
  returned: { type: "success", title: "Funds returned", description: "The loan awaits funding again; the borrower is asked for another account." },
  loanCancelled: { type: "success", title: "Loan cancelled", description: "The agreement is void; the borrower was e-mailed." },
  feeCollected: { type: "success", title: "Fee recorded as collected", description: "The net proceeds are now the whole amount." },
  idAccepted: { type: "success", title: "ID document accepted", description: "The checklist's identity item is met." },
} as const satisfies Record<string, Toast>;
