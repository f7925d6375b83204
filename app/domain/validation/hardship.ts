import type { ActionResult, Toast } from "~/domain/action-result";
import { COLLECTIONS_LIMITS, HARDSHIP_REASONS } from "~/domain/collections-enums";
import { OFFER_LIMITS } from "~/domain/loan-offers";
import { MODIFICATION_KINDS, MODIFICATION_LIMITS } from "~/domain/loan-modifications";
import { UUID_PATTERN } from "../ids";
import { moneyField, wholeNumberField } from "./figure-fields";
import { CONTROL_CHARACTER_MESSAGE, hasNoControlCharacters } from "./text-rules";
import { intentSchemas, writtenText } from "./text-fields";
import { z } from "./zod";

/**
 * The hardship forms. The borrower's (POST /dashboard/loans/:id/hardship): Request Help with Payments
 * (request-help), signing the plan offered (sign-plan, on the review page) and declining it
 * (decline-plan). Staff's (POST /admin/loans/:id/hardship): offer a plan (offer-plan: Deferment, Payment
 * Plan or Change Due Date), withdraw it (withdraw-plan), close a request without a plan (close-request).
 * One schema per intent, used by the page before posting and by the action (the authority). Amounts are
 * dollars text turned into integer cents; the installment a plan starts from is never posted: the
 * server takes the first unpaid one. Pure, no I/O, safe in the browser.
 */

export const BORROWER_HARDSHIP_INTENTS = ["request-help", "sign-plan", "decline-plan"] as const;
export type BorrowerHardshipIntent = (typeof BORROWER_HARDSHIP_INTENTS)[number];
export const STAFF_HARDSHIP_INTENTS = ["offer-plan", "withdraw-plan", "close-request"] as const;
export type StaffHardshipIntent = (typeof STAFF_HARDSHIP_INTENTS)[number];

/** The most a borrower can say they can pay a month, as typed (the database holds any non-negative amount). */
export const MAX_CAN_PAY_CENTS = 10_000_000_00;

/** How long a plan offer stays open for the borrower to sign. */
export const PLAN_OFFER_DAYS = 14;

export const AGREE_TO_PLAN_LABEL = "I have read this modification agreement and agree to sign it electronically";

export const HARDSHIP_MESSAGES = {
  reason: "Choose the reason you need help.",
  detailsTooLong: `Keep the details to ${COLLECTIONS_LIMITS.hardshipDetailsMaxLength} characters.`,
  canPay: "Enter what you can pay a month, in dollars and cents, such as 150 or 150.00 (0 if nothing).",
  modification: "This plan offer is not valid. Reload the page.",
  request: "This help request is not valid. Reload the page.",
  typedRequired: "Type your full name to sign.",
  typedLength: `Your typed name must be 2 to ${OFFER_LIMITS.typedSignatureMaxLength} characters.`,
  typedMismatch: "Type your full name as you gave it when you signed up or applied",
  agree: "Check the box to confirm that you have read the modification agreement and agree to sign it electronically.",
  digest: "This form is missing the schedule you reviewed. Reload the page, review the plan and sign.",
  kind: "Choose the plan: Deferment, Payment Plan or Change Due Date.",
  count: `Choose how many installments to defer: 1 to ${MODIFICATION_LIMITS.defermentMaxInstallments}.`,
  months: `Choose how many months of reduced payments: 1 to ${MODIFICATION_LIMITS.paymentPlanMaxMonths}.`,
  reducedPayment: "Enter the reduced monthly payment in dollars and cents, such as 150 or 150.00.",
  dueDay: `Choose the new due day: ${MODIFICATION_LIMITS.dueDayMin} to ${MODIFICATION_LIMITS.dueDayMax}.`,
  noteTooLong: `Keep the note to ${COLLECTIONS_LIMITS.reasonMaxLength} characters.`,
  closeNote: "Say why the request is closed without a plan (the borrower reads it).",
  closeNoteTooLong: `Keep the reason to ${COLLECTIONS_LIMITS.reasonMaxLength} characters.`,
  // Refusals of the service (state, not form).
  notFound: "This loan does not exist.",
  notServiced: "Help with payments is available on a loan that has been funded and is not paid off, charged off, settled or cancelled.",
  alreadyAsked: "You already asked for help with this loan. We will contact you; its status is shown on this page.",
  noRequestOpen: "There is no open help request on this loan.",
  offerOpen: "A plan is already offered on this loan. Withdraw it before offering another.",
  noOffer: "There is no plan offered on this loan.",
  offerGone: "This plan is no longer offered. Reload the page.",
  expired: "This plan offer has expired. Ask us for a new offer.",
  withdrawn: "This plan offer was withdrawn. Ask us for a new offer if you still need help.",
  declined: "You declined this plan offer.",
  signed: "This plan is already signed. Download your signed modification agreement from your loan page.",
  scheduleChanged: "Your loan changed since this plan was offered, so its schedule is no longer the one shown. Ask us for a new offer.",
  pageStale: "The plan changed since you opened this page. Reload it, review the plan and sign.",
  nothingUnpaid: "Every installment of this loan is paid: there is nothing a plan could change.",
  noConsent: "Your consent to electronic records and signatures (E-SIGN) is not in force, so this plan cannot be signed online. Send us a message and we will send it to you on paper.",
  doesNotFit: "This plan does not fit the loan's schedule",
} as const;

const checked = (message: string) =>
  z
    .string({ error: message })
    .refine((v) => v === "on" || v === "true" || v === "yes", message)
    .transform(() => true as const);

const uuid = (message: string) =>
  z
    .string({ error: message })
    .regex(UUID_PATTERN, message)
    .transform((v) => v.toLowerCase());

const typedName = z
  .string({ error: HARDSHIP_MESSAGES.typedRequired })
  .trim()
  .min(1, HARDSHIP_MESSAGES.typedRequired)
  .min(2, HARDSHIP_MESSAGES.typedLength)
  .max(OFFER_LIMITS.typedSignatureMaxLength, HARDSHIP_MESSAGES.typedLength)
  .refine((v) => hasNoControlCharacters(v) && !/[\t\r\n]/.test(v), CONTROL_CHARACTER_MESSAGE);

export const requestHelpSchema = z.object({
  intent: z.literal("request-help"),
  reason: z.enum(HARDSHIP_REASONS, { error: HARDSHIP_MESSAGES.reason }),
  details: writtenText({ max: COLLECTIONS_LIMITS.hardshipDetailsMaxLength, tooLong: HARDSHIP_MESSAGES.detailsTooLong }).optional(),
  canPay: moneyField(HARDSHIP_MESSAGES.canPay, { maxWholeDigits: 8, minCents: 0, maxCents: MAX_CAN_PAY_CENTS }),
});
export type RequestHelpInput = z.output<typeof requestHelpSchema>;

export const signPlanSchema = z.object({
  intent: z.literal("sign-plan"),
  modificationId: uuid(HARDSHIP_MESSAGES.modification),
  /** The digest of the schedule the page showed: the server signs only that schedule. */
  scheduleDigest: z.string({ error: HARDSHIP_MESSAGES.digest }).regex(/^[0-9a-f]{64}$/, HARDSHIP_MESSAGES.digest),
  typedName,
  agree: checked(HARDSHIP_MESSAGES.agree),
});
export type SignPlanInput = z.output<typeof signPlanSchema>;

export const declinePlanSchema = z.object({ intent: z.literal("decline-plan"), modificationId: uuid(HARDSHIP_MESSAGES.modification) });

export const borrowerHardshipSchemaFor = intentSchemas({ "request-help": requestHelpSchema, "sign-plan": signPlanSchema, "decline-plan": declinePlanSchema });

const note = writtenText({ max: COLLECTIONS_LIMITS.reasonMaxLength, tooLong: HARDSHIP_MESSAGES.noteTooLong }).optional();

/**
 * Offer a plan: the kind, then that kind's one or two figures (the other fields of the form are
 * ignored). The result is the offer as app/domain/loan-modifications.ts types it, but for the
 * installment it starts from, which the server takes (the first unpaid one).
 */
export const offerPlanSchema = z
  .object({
    intent: z.literal("offer-plan"),
    kind: z.enum(MODIFICATION_KINDS, { error: HARDSHIP_MESSAGES.kind }),
    count: z.string().max(8).optional(),
    months: z.string().max(8).optional(),
    reducedPayment: z.string().max(32).optional(),
    dueDay: z.string().max(8).optional(),
    note,
  })
  .transform((input, ctx) => {
    const figure = <T>(field: "count" | "months" | "reducedPayment" | "dueDay", schema: z.ZodType<T, string>, message: string): T | typeof z.NEVER => {
      const parsed = schema.safeParse(input[field] ?? "");
      if (parsed.success) return parsed.data;
      ctx.addIssue({ code: "custom", path: [field], message });
      return z.NEVER;
    };
    const base = { intent: input.intent, note: input.note ?? "" };
    switch (input.kind) {
      case "deferment": {
        const count = figure("count", wholeNumberField(HARDSHIP_MESSAGES.count, { maxDigits: 1, min: 1, max: MODIFICATION_LIMITS.defermentMaxInstallments }) as z.ZodType<number, string>, HARDSHIP_MESSAGES.count);
        return { ...base, plan: { kind: "deferment" as const, count } };
      }
      case "payment_plan": {
        const months = figure("months", wholeNumberField(HARDSHIP_MESSAGES.months, { maxDigits: 1, min: 1, max: MODIFICATION_LIMITS.paymentPlanMaxMonths }) as z.ZodType<number, string>, HARDSHIP_MESSAGES.months);
        const reducedPaymentCents = figure("reducedPayment", moneyField(HARDSHIP_MESSAGES.reducedPayment, { maxWholeDigits: 8, minCents: 0, maxCents: MAX_CAN_PAY_CENTS }) as z.ZodType<number, string>, HARDSHIP_MESSAGES.reducedPayment);
        return { ...base, plan: { kind: "payment_plan" as const, months, reducedPaymentCents } };
      }
      case "due_date_change": {
        const dueDay = figure("dueDay", wholeNumberField(HARDSHIP_MESSAGES.dueDay, { maxDigits: 2, min: MODIFICATION_LIMITS.dueDayMin, max: MODIFICATION_LIMITS.dueDayMax }) as z.ZodType<number, string>, HARDSHIP_MESSAGES.dueDay);
        return { ...base, plan: { kind: "due_date_change" as const, dueDay } };
      }
    }
  });
export type OfferPlanInput = z.output<typeof offerPlanSchema>;
/** A plan as staff choose it: the offer without the installment it starts from. */
export type PlanChoice = OfferPlanInput["plan"];

export const withdrawPlanSchema = z.object({ intent: z.literal("withdraw-plan"), modificationId: uuid(HARDSHIP_MESSAGES.modification), note });

export const closeRequestSchema = z.object({
  intent: z.literal("close-request"),
  requestId: uuid(HARDSHIP_MESSAGES.request),
  note: writtenText({ max: COLLECTIONS_LIMITS.reasonMaxLength, tooLong: HARDSHIP_MESSAGES.closeNoteTooLong, required: HARDSHIP_MESSAGES.closeNote }),
});

export const staffHardshipSchemaFor = intentSchemas({ "offer-plan": offerPlanSchema, "withdraw-plan": withdrawPlanSchema, "close-request": closeRequestSchema });

/** What the hardship actions answer (JSON, to the page's fetcher). */
export type HardshipActionData = ActionResult<{ intent: BorrowerHardshipIntent | StaffHardshipIntent | null; toast: Toast; at: number; redirectTo?: string }>;
