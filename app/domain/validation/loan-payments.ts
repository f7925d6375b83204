import type { ActionResult, Toast } from "~/domain/action-result";
import { centsFromDollars } from "~/domain/money";
import { PAYMENT_METHODS } from "~/domain/servicing-enums";
import { CONTROL_CHARACTER_MESSAGE, hasNoControlCharacters } from "./text-rules";
import { z } from "./zod";
import { moneyField } from "./figure-fields";
import { writtenText } from "./text-fields";
import { isRealDay } from "../dates";
import type { LoanFundingIntent } from "./loan-funding";

/**
 * Record Payment and Reverse Payment (staff, /admin/loans/:id). One schema per dialog,
 * shared by the browser (errors under the fields) and the route's action (the authority). Money is
 * typed in dollars and becomes integer cents exactly (moneyField); the received date is a day
 * 'yyyy-MM-dd' not after today (the caller passes today, UTC on the server).
 */

export const LOAN_PAYMENT_INTENTS = ["record-payment", "reverse-payment"] as const;
export type LoanPaymentIntent = (typeof LOAN_PAYMENT_INTENTS)[number];

export const LOAN_PAYMENT_LIMITS = {
  /** The most one payment can be: the largest loan there is. */
  amountMaxDollars: 10_000_000,
  referenceMaxLength: 80,
  reasonMaxLength: 500,
} as const;

export const LOAN_PAYMENT_MESSAGES = {
  intent: "Unknown action.",
  amount: `Enter the amount received, between $0.01 and $${LOAN_PAYMENT_LIMITS.amountMaxDollars.toLocaleString("en-US")} (at most two decimals)`,
  receivedOn: "Enter the day the payment was received (yyyy-MM-dd)",
  receivedInFuture: "The received date cannot be in the future.",
  method: "Choose how the payment was received: ACH, Wire or Check",
  referenceRequired: "Enter the payment's reference (check number, wire or ACH reference)",
  referenceTooLong: `The reference must be at most ${LOAN_PAYMENT_LIMITS.referenceMaxLength} characters`,
  referencePrintable: "The reference can hold letters, digits, spaces and punctuation only",
  paymentId: "This payment does not exist.",
  reasonRequired: "Give the reason for the reversal (for example Returned / NSF)",
  reasonTooLong: `The reason must be at most ${LOAN_PAYMENT_LIMITS.reasonMaxLength} characters`,
  loanNotFound: "This loan does not exist.",
  confirmPendingDebit: "A borrower debit is pending on this loan: tick the box to confirm you want to record this payment as well.",
  idempotencyKey: "This form is out of date. Close Record Payment and open it again.",
  idempotencyKeyReused: "This form was already posted with other values. Close Record Payment and open it again to record another payment.",
} as const;


/** Letters, marks, digits, punctuation, symbols and spaces: what a check number or a wire reference holds. */
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]+$/u;

/** "$1,234.56", "1234.5" → 123456 cents; anything else fails. */
export const paymentAmountField = moneyField(LOAN_PAYMENT_MESSAGES.amount, {
  maxWholeDigits: 8,
  minCents: 1,
  maxCents: centsFromDollars(LOAN_PAYMENT_LIMITS.amountMaxDollars),
});

/** Record Payment's form: Amount, Received Date, Method, Reference. `today` is 'yyyy-MM-dd'. */
export function recordPaymentSchema(today: string) {
  return z.object({
    intent: z.literal("record-payment", { error: LOAN_PAYMENT_MESSAGES.intent }),
    amount: paymentAmountField,
    receivedOn: z
      .string({ error: LOAN_PAYMENT_MESSAGES.receivedOn })
      .transform((value) => value.trim())
      .pipe(
        z
          .string()
          .refine(isRealDay, LOAN_PAYMENT_MESSAGES.receivedOn)
          .refine((value) => value <= today, LOAN_PAYMENT_MESSAGES.receivedInFuture),
      ),
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
    /**
     * The dialog's idempotency key (a uuid rendered into the form): the same form posted twice is
     * answered as the first post was and posts once. Optional for callers that send none.
     */
    idempotencyKey: z
      .uuid({ error: LOAN_PAYMENT_MESSAGES.idempotencyKey })
      .optional()
      .transform((value) => value?.toLowerCase()),
    /** Ticked when staff saw the warning that a borrower debit is pending; the server decides whether it is needed. */
    confirmPendingDebit: z
      .literal("yes", { error: LOAN_PAYMENT_MESSAGES.confirmPendingDebit })
      .optional()
      .transform((value) => value === "yes"),
  });
}
export type RecordPaymentForm = z.output<ReturnType<typeof recordPaymentSchema>>;

/** Reverse Payment's form: the payment and the reason (line breaks kept, other control characters refused). */
export const reversePaymentSchema = z.object({
  intent: z.literal("reverse-payment", { error: LOAN_PAYMENT_MESSAGES.intent }),
  paymentId: z.uuid({ error: LOAN_PAYMENT_MESSAGES.paymentId }),
  reason: writtenText({ max: LOAN_PAYMENT_LIMITS.reasonMaxLength, tooLong: LOAN_PAYMENT_MESSAGES.reasonTooLong, required: LOAN_PAYMENT_MESSAGES.reasonRequired }),
});
export type ReversePaymentForm = z.output<typeof reversePaymentSchema>;

/** What POST /admin/loans/:id answers (payments and funding): the toast (shown once per post), the fields' errors. */
export type LoanPaymentActionData = ActionResult<{ intent: LoanPaymentIntent | LoanFundingIntent | null; toast: Toast; at: number }>;

export const LOAN_PAYMENT_FAILED: Record<LoanPaymentIntent, string> = {
  "record-payment": "Failed to record the payment",
  "reverse-payment": "Failed to reverse the payment",
};

export const LOAN_PAYMENT_TOASTS = {
  recorded: { type: "success", title: "Payment recorded", description: "It was posted and allocated to fees, interest and principal." },
  paidInFull: { type: "success", title: "Payment recorded: Paid in Full", description: "The loan is paid in full; the borrower receives the paid-in-full e-mail." },
  reversed: { type: "success", title: "Payment reversed", description: "The ledger was re-allocated without it." },
} as const satisfies Record<string, Toast>;
