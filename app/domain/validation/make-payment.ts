import { parseMoney } from "~/domain/money";
import type { ActionResult, Toast } from "~/domain/action-result";
import { PAYMENT_CHOICES } from "~/domain/servicing-enums";
import { z } from "./zod";
import { isoDay } from "../dates";
import { UUID_PATTERN } from "../ids";

/**
 * Make a Payment: the borrower's loan page posts intent=pay to /dashboard/loans/:id with
 * what to pay (the next installment, an amount of their choosing, or the payoff), the bank account on
 * file to debit and the ACH authorisation checkbox. One schema for the page (before posting) and the
 * action (the authority). The installment and payoff amounts are the server's, computed under the
 * loan's lock; only a chosen amount comes from the browser, as dollars text turned into integer cents
 * without floating point. Pure, no I/O.
 *
 * The payoff quote's good-through date (the GET form to /dashboard/loans/:id/documents) is checked by
 * loanDocumentQuerySchema below.
 */

export const MAKE_PAYMENT_INTENTS = ["pay"] as const;

/** The most a chosen amount can be typed as (the server refuses anything above the payoff anyway). */
export const MAX_PAYMENT_CENTS = 100_000_000_00;

/** How far ahead a payoff quote may be good through. */
export const PAYOFF_QUOTE_MAX_DAYS = 60;

export const MAKE_PAYMENT_MESSAGES = {
  choice: "Choose what to pay: the next installment, an amount, or the payoff amount.",
  amountRequired: "Enter the amount to pay.",
  amountFormat: "Enter an amount in dollars and cents, such as 250 or 250.00.",
  amountPositive: "The amount must be more than $0.00.",
  amountAbovePayoff: "The amount cannot be more than the payoff amount.",
  bankAccount: "Choose the bank account to debit.",
  bankAccountUnknown: "Choose one of your bank accounts on file.",
  authorize: "Check the box to authorize this one-time ACH debit.",
  pendingExists: "A payment you made is still pending. You can make another once it has settled.",
  paidOff: "This loan is paid in full: it takes no more payments.",
  notFound: "This loan does not exist.",
  noInstallment: "There is no installment left to pay.",
} as const;


/** "1,234.5" / "$250" / "250.00" → cents; null when it is not a dollar amount with at most two decimals. */
export function parseDollarsToCents(text: string): number | null {
  return parseMoney(text, { grouping: "strict" });
}

const checked = (message: string) =>
  z
    .string({ error: message })
    .refine((v) => v === "on" || v === "true" || v === "yes", message)
    .transform(() => true as const);

export const makePaymentSchema = z
  .object({
    intent: z.literal("pay"),
    choice: z.enum(PAYMENT_CHOICES, { error: MAKE_PAYMENT_MESSAGES.choice }),
    amount: z.string().max(32, MAKE_PAYMENT_MESSAGES.amountFormat).optional(),
    bankAccountId: z.string({ error: MAKE_PAYMENT_MESSAGES.bankAccount }).regex(UUID_PATTERN, MAKE_PAYMENT_MESSAGES.bankAccount),
    authorize: checked(MAKE_PAYMENT_MESSAGES.authorize),
  })
  .transform((input, ctx) => {
    let amountCents: number | null = null;
    if (input.choice === "amount") {
      const text = input.amount?.trim() ?? "";
      if (!text) {
        ctx.addIssue({ code: "custom", path: ["amount"], message: MAKE_PAYMENT_MESSAGES.amountRequired });
        return z.NEVER;
      }
      amountCents = parseDollarsToCents(text);
      if (amountCents === null || amountCents > MAX_PAYMENT_CENTS) {
        ctx.addIssue({ code: "custom", path: ["amount"], message: MAKE_PAYMENT_MESSAGES.amountFormat });
        return z.NEVER;
      }
      if (amountCents <= 0) {
        ctx.addIssue({ code: "custom", path: ["amount"], message: MAKE_PAYMENT_MESSAGES.amountPositive });
        return z.NEVER;
      }
    }
    return { intent: input.intent, choice: input.choice, amountCents, bankAccountId: input.bankAccountId.toLowerCase(), authorize: input.authorize };
  });
export type MakePaymentInput = z.output<typeof makePaymentSchema>;

/** What the action answers: the toast, the field messages; `at` tells two equal answers apart. */
export type MakePaymentActionData = ActionResult<{ intent: "pay" | null; toast: Toast; at: number }>;

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const ISO_MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

function isCalendarDay(value: string): boolean {
  if (!ISO_DAY.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && isoDay(d) === value;
}

/** The query of GET /dashboard/loans/:id/documents. */
export const loanDocumentQuerySchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("payoff"), date: z.string().refine(isCalendarDay, "The good-through date must be a date (yyyy-MM-dd).") }),
  z.object({ kind: z.literal("statement"), month: z.string().regex(ISO_MONTH, "The statement month must be a month (yyyy-MM).") }),
  z.object({ kind: z.literal("paid-in-full") }),
]);
export type LoanDocumentQuery = z.output<typeof loanDocumentQuerySchema>;
