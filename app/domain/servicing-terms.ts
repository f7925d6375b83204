import { z } from "zod";
import type { LateFeePolicy } from "./loan-servicing";

/**
 * The servicing terms a borrower signs, fixed on the offer when it is made and copied to the loan when
 * it is signed: how interest is computed, the order a payment is applied in, the late fee (or none),
 * the returned-payment fee (or none) and prepayment. The loan is serviced by its own stored terms and
 * the note and the disclosure box are written from them, so what is signed is what is done. The
 * lender's configuration only sets the terms of offers made after it changes (docs/decisions/0087).
 *
 * Pure, no I/O, safe in the browser. Stored as JSON with a version; `parseServicingTerms` reads it
 * back and refuses anything this code does not service.
 */

export const SERVICING_TERMS_VERSION = 1;

/** Simple interest on the unpaid principal, accrued daily: a year of 365 days, each day its own. */
export const INTEREST_METHOD = "simple_daily_actual_365" as const;
/** What a payment pays, in order: fees due (oldest first), then interest accrued to its date, then principal. */
export const PAYMENT_ORDER = ["fees", "interest", "principal"] as const;

export type ServicingTerms = {
  version: typeof SERVICING_TERMS_VERSION;
  interestMethod: typeof INTEREST_METHOD;
  paymentOrder: typeof PAYMENT_ORDER;
  /** The late fee for an installment unpaid after the grace days, or null: this loan has none. */
  lateFee: LateFeePolicy | null;
  /** The fee for a payment returned unpaid by the borrower's bank, in cents, or null: none. */
  returnedPaymentFeeCents: number | null;
  /** Prepaying all or part never costs a penalty; the origination fee is earned at signing and not refunded. */
  prepaymentPenalty: "none";
};

const centsField = z.number().int().min(0).max(100_000_00);

const lateFeeSchema = z
  .object({
    graceDays: z.number().int().min(0).max(60),
    flatCents: centsField,
    percentMilli: z.number().int().min(0).max(25_000),
    capCents: centsField,
  })
  .strict()
  .refine((fee) => fee.capCents > 0 && (fee.flatCents > 0 || fee.percentMilli > 0), "a late fee must be able to charge something: use null for none");

export const servicingTermsSchema = z
  .object({
    version: z.literal(SERVICING_TERMS_VERSION),
    interestMethod: z.literal(INTEREST_METHOD),
    paymentOrder: z.tuple([z.literal("fees"), z.literal("interest"), z.literal("principal")]),
    lateFee: lateFeeSchema.nullable(),
    returnedPaymentFeeCents: centsField.positive().nullable(),
    prepaymentPenalty: z.literal("none"),
  })
  .strict();

export class ServicingTermsUnreadable extends Error {
  constructor(detail: string) {
    super(`servicing terms: ${detail}`);
    this.name = "ServicingTermsUnreadable";
  }
}

/** Stored terms back as the type; throws ServicingTermsUnreadable on anything else (never serviced by a guess). */
export function parseServicingTerms(value: unknown): ServicingTerms {
  const parsed = servicingTermsSchema.safeParse(value);
  if (!parsed.success) throw new ServicingTermsUnreadable(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; "));
  return parsed.data as ServicingTerms;
}

/**
 * The terms a new offer gets from the lender's late-fee setting: a policy that can charge nothing (no
 * amount and no percent, or a cap of zero) is no late fee. There is no returned-payment fee: the product
 * assesses none when a payment comes back, so no agreement may promise or threaten one.
 */
export function servicingTermsFrom(lateFeePolicy: LateFeePolicy): ServicingTerms {
  const fee = lateFeePolicy;
  const charges = fee.capCents > 0 && (fee.flatCents > 0 || fee.percentMilli > 0);
  return {
    version: SERVICING_TERMS_VERSION,
    interestMethod: INTEREST_METHOD,
    paymentOrder: PAYMENT_ORDER,
    lateFee: charges ? { graceDays: fee.graceDays, flatCents: fee.flatCents, percentMilli: fee.percentMilli, capCents: fee.capCents } : null,
    returnedPaymentFeeCents: null,
    prepaymentPenalty: "none",
  };
}
