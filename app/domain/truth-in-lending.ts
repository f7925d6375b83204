/**
 * The federal Truth in Lending disclosure of a closed-end loan (Regulation Z, 12 CFR 1026.18): amount
 * financed, finance charge, total of payments, the payment schedule and the annual percentage rate by the
 * actuarial method of Appendix J. Pure, no I/O, safe in the browser (docs/decisions/0029-apr-method.md,
 * docs/decisions/0085-interest-method-and-one-schedule.md).
 *
 * Every amount of money is an integer of cents, in and out: the disclosure is signed and must be right to
 * the cent, and binary fractions of dollars drift. Rates are integers of thousandths of a percent, so the
 * interest and the fee are exact (BigInt, rounded half-up); only the APR, found by search, is a float.
 */

import { addMonths, levelPaymentCents, parseDate, projectSchedule, type PaymentRow } from "./loan-schedule";
import type { Cents, RateMilli } from "./money";

export { addMonths, type PaymentRow };

/** What a disclosure accepts: sanity bounds, not lending policy (the loan types' ranges live elsewhere). */
export const TRUTH_IN_LENDING_LIMITS = {
  maxAmountCents: 100_000_000_000, // $1,000,000,000
  minTermMonths: 1,
  maxTermMonths: 480,
  /** One hundred percent, in thousandths of a percent. */
  maxNoteRateMilli: 100_000,
  /** 25 %, in thousandths of a percent. */
  maxOriginationFeeMilli: 25_000,
} as const;

/** 12 CFR 1026.22(a)(2): a regular transaction's disclosed APR may be off by 1/8 of a percentage point. */
export const APR_TOLERANCE_PERCENT = 0.125;

export type DisclosureInput = {
  amountCents: Cents;
  /** The note rate in thousandths of a percent (8.5 % → 8500). */
  noteRateMilli: RateMilli;
  termMonths: number;
  /** The origination fee, thousandths of a percent of the amount. */
  originationFeeMilli: RateMilli;
  /** The day the borrower signs (consummation), 'yyyy-MM-dd': installment k falls due k months later. */
  signedOn: string;
  /** The day the proceeds are expected to settle, 'yyyy-MM-dd': interest accrues from it (default: signedOn). */
  fundedOn?: string;
};

export type Disclosure = {
  amountCents: number;
  originationFeeCents: number;
  amountFinancedCents: number;
  /** The regular monthly payment; the last one may differ (it pays the loan off). */
  paymentCents: number;
  schedule: PaymentRow[];
  totalOfPaymentsCents: number;
  financeChargeCents: number;
  /** The APR as disclosed: two decimals, half-up. */
  aprPercent: number;
  /** The APR the search found, before rounding for display. */
  aprPercentUnrounded: number;
};

/** a / b rounded half-up (a, b ≥ 0, b > 0), exactly. */
function divideHalfUp(a: bigint, b: bigint): bigint {
  return (2n * a + b) / (2n * b);
}

/** A rate in thousandths of a percent; RangeError unless it is a whole number from 0 to `max`. */
function rateMilli(name: string, milli: number, max: number): bigint {
  if (!Number.isSafeInteger(milli) || milli < 0 || milli > max) {
    throw new RangeError(`${name} must be a whole number of thousandths of a percent from 0 to ${max} (got ${String(milli)}).`);
  }
  return BigInt(milli);
}

function validate(input: DisclosureInput): { noteRate: bigint; feeRate: bigint } {
  const { amountCents, termMonths } = input;
  const limits = TRUTH_IN_LENDING_LIMITS;
  if (!Number.isSafeInteger(amountCents) || amountCents < 1 || amountCents > limits.maxAmountCents) {
    throw new RangeError(`amountCents must be a whole number of cents from 1 to ${limits.maxAmountCents} (got ${String(amountCents)}).`);
  }
  if (!Number.isInteger(termMonths) || termMonths < limits.minTermMonths || termMonths > limits.maxTermMonths) {
    throw new RangeError(`termMonths must be a whole number from ${limits.minTermMonths} to ${limits.maxTermMonths} (got ${String(termMonths)}).`);
  }
  parseDate(input.signedOn);
  return {
    noteRate: rateMilli("noteRateMilli", input.noteRateMilli, limits.maxNoteRateMilli),
    feeRate: rateMilli("originationFeeMilli", input.originationFeeMilli, limits.maxOriginationFeeMilli),
  };
}

/** Present value at monthly rate i of payments due 1, 2, … months after the advance (Horner's rule). */
function presentValue(paymentsCents: readonly number[], i: number): number {
  const v = 1 / (1 + i);
  let value = 0;
  for (let k = paymentsCents.length - 1; k >= 0; k--) value = (value + paymentsCents[k]!) * v;
  return value;
}

/**
 * The APR, in percent, of a single advance of `amountFinancedCents` repaid by `paymentsCents`, the k-th
 * due k months after the advance (a regular first period: Appendix J's general equation with t = k and no
 * fractional period). The monthly rate i solves Σ Pₖ / (1 + i)^k = A and the APR is 12·i. The present
 * value falls as i rises, so bisection finds the one root without a starting guess (the tests check it
 * against Newton's method written separately). Unrounded; round for display.
 */
export function actuarialAprPercent(amountFinancedCents: number, paymentsCents: readonly number[]): number {
  if (!Number.isSafeInteger(amountFinancedCents) || amountFinancedCents < 1) {
    throw new RangeError(`The amount financed must be a positive whole number of cents (got ${String(amountFinancedCents)}).`);
  }
  if (paymentsCents.length === 0 || !paymentsCents.every((p) => Number.isSafeInteger(p) && p >= 0)) {
    throw new RangeError("The payments must be one or more whole numbers of cents, none negative.");
  }
  const total = paymentsCents.reduce((sum, p) => sum + p, 0);
  if (total < amountFinancedCents) {
    throw new RangeError("The payments add up to less than the amount financed: there is no annual percentage rate.");
  }
  if (total === amountFinancedCents) return 0;
  let low = 0;
  let high = 1; // 100 % a month; doubled until the payments are worth less than the amount financed.
  while (presentValue(paymentsCents, high) > amountFinancedCents) {
    low = high;
    high *= 2;
    if (high > 2 ** 20) throw new RangeError("The annual percentage rate is beyond any sane range.");
  }
  for (let step = 0; step < 200 && high - low > 1e-15; step++) {
    const mid = (low + high) / 2;
    if (presentValue(paymentsCents, mid) > amountFinancedCents) low = mid;
    else high = mid;
  }
  return ((low + high) / 2) * 12 * 100;
}

/** A disclosed APR as shown: two decimals, half-up (the tolerance check uses the unrounded value). */
function roundApr(percent: number): number {
  return Math.round((percent + 1e-9) * 100) / 100;
}

/**
 * The disclosure of a loan of `amountCents` at `noteRateMilli` for `termMonths` monthly payments, the
 * first due one month after `signedOn`, with an origination fee of `originationFeeMilli` of the amount
 * (a prepaid finance charge: it is deducted from the amount financed, so it raises the APR above the note
 * rate). The payment schedule is the loan's one schedule (projectSchedule in ./loan-schedule): the
 * regular payment is the level payment (levelPaymentCents), interest accrues daily (actual/365) from the
 * expected funding day (`fundedOn`, else the signing day) exactly as the ledger charges it, and the last payment pays the loan off, so the figures
 * depend on the signing day. Finance charge = total of payments − amount financed; the APR is the
 * actuarial rate of Appendix J on that schedule. Throws a RangeError on inputs out of range, or when no
 * level payment in whole cents repays the loan in exactly its term (one cent more ends it early, one
 * less leaves a balloon: high rates over long terms on small amounts, $5,000 at 35.99 % for 360 months).
 */
export function disclosure(input: DisclosureInput): Disclosure {
  const { noteRate, feeRate } = validate(input);
  const { amountCents, termMonths, signedOn } = input;
  const originationFeeCents = Number(divideHalfUp(BigInt(amountCents) * feeRate, 100n * 1000n));
  const amountFinancedCents = amountCents - originationFeeCents;
  if (amountFinancedCents < 1) throw new RangeError("The origination fee leaves no amount financed.");

  // The level payment of the signing day under the ledger's rule: the last payment is never the larger.
  const terms = { amountCents, noteRateMilli: Number(noteRate), termMonths, startDate: signedOn, interestFrom: input.fundedOn ?? null };
  const paymentCents = levelPaymentCents(terms);
  const schedule = projectSchedule({ ...terms, paymentCents });
  const totalOfPaymentsCents = schedule.reduce((sum, row) => sum + row.paymentCents, 0);
  const aprPercentUnrounded = actuarialAprPercent(amountFinancedCents, schedule.map((row) => row.paymentCents));
  return {
    amountCents,
    originationFeeCents,
    amountFinancedCents,
    paymentCents,
    schedule,
    totalOfPaymentsCents,
    financeChargeCents: totalOfPaymentsCents - amountFinancedCents,
    aprPercent: roundApr(aprPercentUnrounded),
    aprPercentUnrounded,
  };
}

/**
 * Whether a disclosed APR is accurate under 12 CFR 1026.22(a)(2) for a regular transaction: at most 1/8
 * of a percentage point above or below the actual APR (the boundary included; a billionth of a point of
 * slack absorbs binary subtraction, e.g. 9.815 − 9.69).
 */
export function aprWithinTolerance(disclosedPercent: number, actualPercent: number): boolean {
  if (!Number.isFinite(disclosedPercent) || !Number.isFinite(actualPercent)) {
    throw new RangeError(`Both APRs must be finite numbers (got ${String(disclosedPercent)} and ${String(actualPercent)}).`);
  }
  return Math.abs(disclosedPercent - actualPercent) <= APR_TOLERANCE_PERCENT + 1e-9;
}
