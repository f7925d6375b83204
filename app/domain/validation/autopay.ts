/**
 * Set Up, Change and Cancel Autopay on the borrower's loan page (intents to /dashboard/loans/:id): one
 * schema, discriminated by intent, for the dialog (before posting) and the action (the authority). The
 * fixed amount is dollars text turned into integer cents by the money module, never a float. Pure, no I/O.
 */
import type { ActionResult, Toast } from "~/domain/action-result";
import { AUTOPAY_AMOUNT_KINDS, AUTOPAY_MAX_DAYS_BEFORE_DUE } from "~/domain/servicing-enums";
import { UUID_PATTERN } from "../ids";
import { MAX_PAYMENT_CENTS, parseDollarsToCents } from "./make-payment";
import { z } from "./zod";

export const AUTOPAY_INTENTS = ["setup-autopay", "change-autopay", "cancel-autopay"] as const;
export type AutopayIntent = (typeof AUTOPAY_INTENTS)[number];

export const AUTOPAY_MESSAGES = {
  bankAccount: "Choose the bank account to debit.",
  bankAccountUnknown: "Choose one of your bank accounts on file.",
  notValidated: "This bank account is not validated yet: autopay can use it once it is.",
  amountKind: "Choose the amount: the installment due or a fixed amount.",
  amountRequired: "Enter the fixed amount.",
  amountFormat: "Enter an amount in dollars and cents, such as 500 or 500.00.",
  amountBelowInstallment: "A fixed amount cannot be less than the regular monthly payment.",
  daysBeforeDue: `Choose the day: the due date or 1 to ${AUTOPAY_MAX_DAYS_BEFORE_DUE} days before it.`,
  authorize: "Check the box to authorize these recurring ACH debits.",
  alreadyOn: "Autopay is already on for this loan.",
  notOn: "Autopay is not on for this loan.",
  notActive: "Autopay can be set up only on a loan that has been funded and is not paid off or cancelled.",
  nothingLeft: "There is no installment left that autopay could pay.",
  notFound: "This loan does not exist.",
} as const;

const checked = (message: string) =>
  z
    .string({ error: message })
    .refine((v) => v === "on" || v === "true" || v === "yes", message)
    .transform(() => true as const);

const terms = {
  bankAccountId: z.string({ error: AUTOPAY_MESSAGES.bankAccount }).regex(UUID_PATTERN, AUTOPAY_MESSAGES.bankAccount).transform((v) => v.toLowerCase()),
  amountKind: z.enum(AUTOPAY_AMOUNT_KINDS, { error: AUTOPAY_MESSAGES.amountKind }),
  fixedAmount: z.string().max(32, AUTOPAY_MESSAGES.amountFormat).optional(),
  daysBeforeDue: z
    .string({ error: AUTOPAY_MESSAGES.daysBeforeDue })
    .regex(/^[0-9]$/, AUTOPAY_MESSAGES.daysBeforeDue)
    .transform(Number)
    .refine((n) => n <= AUTOPAY_MAX_DAYS_BEFORE_DUE, AUTOPAY_MESSAGES.daysBeforeDue),
  authorize: checked(AUTOPAY_MESSAGES.authorize),
};

export type AutopayTerms = { bankAccountId: string; amountKind: (typeof AUTOPAY_AMOUNT_KINDS)[number]; fixedAmountCents: number | null; daysBeforeDue: number };

const withCents = <T extends { amountKind: AutopayTerms["amountKind"]; fixedAmount?: string | undefined }>(input: T, ctx: z.RefinementCtx): number | null | typeof z.NEVER => {
  if (input.amountKind !== "fixed") return null;
  const text = input.fixedAmount?.trim() ?? "";
  if (!text) {
    ctx.addIssue({ code: "custom", path: ["fixedAmount"], message: AUTOPAY_MESSAGES.amountRequired });
    return z.NEVER;
  }
  const cents = parseDollarsToCents(text);
  if (cents === null || cents <= 0 || cents > MAX_PAYMENT_CENTS) {
    ctx.addIssue({ code: "custom", path: ["fixedAmount"], message: AUTOPAY_MESSAGES.amountFormat });
    return z.NEVER;
  }
  return cents;
};

const setupSchema = z.object({ intent: z.literal("setup-autopay"), ...terms });
const changeSchema = z.object({ intent: z.literal("change-autopay"), ...terms });
const cancelSchema = z.object({ intent: z.literal("cancel-autopay") });

export const autopaySchema = z.discriminatedUnion("intent", [setupSchema, changeSchema, cancelSchema]).transform((input, ctx) => {
  if (input.intent === "cancel-autopay") return { intent: input.intent };
  const fixedAmountCents = withCents(input, ctx);
  return { intent: input.intent, bankAccountId: input.bankAccountId, amountKind: input.amountKind, fixedAmountCents, daysBeforeDue: input.daysBeforeDue, authorize: input.authorize };
});
export type AutopayInput = z.output<typeof autopaySchema>;

/** What the action answers for the autopay intents. */
export type AutopayActionData = ActionResult<{ intent: AutopayIntent | null; toast: Toast; at: number }>;
