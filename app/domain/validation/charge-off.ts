import type { ActionResult, Toast } from "~/domain/action-result";
import { COLLECTIONS_LIMITS } from "~/domain/collections-enums";
import { PAYMENT_METHODS } from "~/domain/servicing-enums";
import { isRealDay } from "../dates";
import { LOAN_PAYMENT_LIMITS, LOAN_PAYMENT_MESSAGES, paymentAmountField } from "./loan-payments";
import { CONTROL_CHARACTER_MESSAGE, hasNoControlCharacters } from "./text-rules";
import { intentSchemas, writtenText } from "./text-fields";
import { z } from "./zod";

/**
 * The Charge-off panel of the staff loan page (POST /admin/loans/:id/charge-off): Charge Off (with a
 * reason), Approve Charge-off / Reject Charge-off (the second admin of a four-eyes charge-off) and Record
 * Settlement (the agreed amount received, which closes the loan as Settled). One schema per form, shared
 * by the browser and the server. Pure, safe in the browser.
 */

export const CHARGE_OFF_INTENTS = ["charge-off", "approve-charge-off", "reject-charge-off", "settle"] as const;
export type ChargeOffIntent = (typeof CHARGE_OFF_INTENTS)[number];

export const CHARGE_OFF_MESSAGES = {
  intent: "Unknown action.",
  reasonRequired: "Give the reason for the charge-off (it is kept with the loan).",
  reasonTooLong: `The reason must be at most ${COLLECTIONS_LIMITS.reasonMaxLength} characters.`,
  requestId: "This charge-off request does not exist.",
  loanNotFound: "This loan does not exist.",
  notChargeable: "Only an active loan that is past due can be charged off.",
  alreadyChargedOff: "This loan is already charged off.",
  pendingRequest: "A charge-off of this loan is already awaiting another admin's approval.",
  notPending: "This charge-off request was already approved or rejected.",
  selfApproval: "The admin who proposed the charge-off cannot approve it: another admin must.",
  notSettleable: "Only an active or charged-off loan can be settled.",
  alreadySettled: "This loan is already settled.",
  settlementNotLess: "A settlement accepts less than what is owed: this amount pays the loan in full, so record it as a payment instead.",
  settlementBeforeLastPayment: "The settlement day cannot be before a payment already posted on this loan.",
  settlementBeforeChargeOff: "The settlement day cannot be before the charge-off day.",
} as const;

const reason = writtenText({ max: COLLECTIONS_LIMITS.reasonMaxLength, tooLong: CHARGE_OFF_MESSAGES.reasonTooLong, required: CHARGE_OFF_MESSAGES.reasonRequired });

/** Letters, marks, digits, punctuation, symbols and spaces: what a check number or a wire reference holds. */
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]+$/u;

export const chargeOffSchema = z.object({ intent: z.literal("charge-off"), reason });
export const approveChargeOffSchema = z.object({ intent: z.literal("approve-charge-off"), requestId: z.uuid({ error: CHARGE_OFF_MESSAGES.requestId }) });
export const rejectChargeOffSchema = z.object({ intent: z.literal("reject-charge-off"), requestId: z.uuid({ error: CHARGE_OFF_MESSAGES.requestId }) });

/** Record Settlement: the agreed amount received, its day (not after today), how and its reference. */
export function settleSchema(today: string) {
  return z.object({
    intent: z.literal("settle"),
    amount: paymentAmountField,
    receivedOn: z
      .string({ error: LOAN_PAYMENT_MESSAGES.receivedOn })
      .transform((value) => value.trim())
      .pipe(z.string().refine(isRealDay, LOAN_PAYMENT_MESSAGES.receivedOn).refine((value) => value <= today, LOAN_PAYMENT_MESSAGES.receivedInFuture)),
    method: z.enum(PAYMENT_METHODS, { error: LOAN_PAYMENT_MESSAGES.method }),
    reference: z
      .string({ error: LOAN_PAYMENT_MESSAGES.referenceRequired })
      .transform((value) => value.trim())
      .pipe(
        z
          .string()
          .min(1, LOAN_PAYMENT_MESSAGES.referenceRequired)
          .max(LOAN_PAYMENT_LIMITS.referenceMaxLength, LOAN_PAYMENT_MESSAGES.referenceTooLong)
          .refine(hasNoControlCharacters, CONTROL_CHARACTER_MESSAGE)
          .refine((value) => PRINTABLE.test(value), LOAN_PAYMENT_MESSAGES.referencePrintable),
      ),
  });
}
export type SettleForm = z.output<ReturnType<typeof settleSchema>>;

/** The schema of a posted intent (null: unknown). */
export function chargeOffIntentSchema(today: string) {
  return intentSchemas({
    "charge-off": chargeOffSchema,
    "approve-charge-off": approveChargeOffSchema,
    "reject-charge-off": rejectChargeOffSchema,
    settle: settleSchema(today),
  });
}

export type ChargeOffActionData = ActionResult<{ intent: ChargeOffIntent | null; toast: Toast; at: number }>;

export const CHARGE_OFF_FAILED: Record<ChargeOffIntent, string> = {
  "charge-off": "Loan not charged off",
  "approve-charge-off": "Charge-off not approved",
  "reject-charge-off": "Charge-off not rejected",
  settle: "Settlement not recorded",
};
