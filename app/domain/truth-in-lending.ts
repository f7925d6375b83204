/**
 * The federal Truth in Lending disclosure of a closed-end loan (Regulation Z, 12 CFR 1026.18): amount
 * financed, finance charge, total of payments, the payment schedule and the annual percentage rate by the
 * actuarial method of Appendix J. Pure, no I/O, safe in the browser (docs/decisions/0029-apr-method.md).
 *
 * Every amount of money is an integer of cents, in and out: the disclosure is signed and must be right to
 * the cent, and binary fractions of dollars drift. Rates are plain numbers (the APR is found by search
 * anyway), but the interest and the fee are worked from them exactly, in BigInt, and rounded half-up once.
 */

import { installmentCents } from "./loan-math";

/** What a disclosure accepts: sanity bounds, not lending policy (the loan types' ranges live elsewhere). */
export const TRUTH_IN_LENDING_LIMITS = {
  maxAmountCents: 100_000_000_000, // $1,000,000,000
  minTermMonths: 1,
  maxTermMonths: 480,
  maxNoteRatePercent: 100,
  maxOriginationFeePercent: 25,
  /** Rates are given to a thousandth of a percent at most (8.125 %), so interest and fee are exact. */
  rateDecimals: 3,
} as const;

/** 12 CFR 1026.22(a)(2): a regular transaction's disclosed APR may be off by 1/8 of a percentage point. */
export const APR_TOLERANCE_PERCENT = 0.125;

export type DisclosureInput = {
  amountCents: number;
  noteRatePercent: number;
  termMonths: number;
  originationFeePercent: number;
  /** The day the borrower signs (consummation), 'yyyy-MM-dd'. */
  signedOn: string;
};

export type PaymentRow = {
  number: number;
  dueDate: string;
  paymentCents: number;
  principalCents: number;
  interestCents: number;
  /** What is still owed after this payment. */
  balanceCents: number;
};

export type Disclosure = {
  amountCents: number;
  originationFeeCents: number;
  amountFinancedCents: number;
  /** The regular monthly payment; the last one may differ (it absorbs the rounding). */
  paymentCents: number;
  schedule: PaymentRow[];
  totalOfPaymentsCents: number;
  financeChargeCents: number;
  /** The APR as disclosed: two decimals, half-up. */
  aprPercent: number;
  /** The APR the search found, before rounding for display. */
  aprPercentUnrounded: number;
};

const RATE_SCALE = 10 ** TRUTH_IN_LENDING_LIMITS.rateDecimals;

/** a / b rounded half-up (a, b ≥ 0, b > 0), exactly. */
function divideHalfUp(a: bigint, b: bigint): bigint {
  return (2n * a + b) / (2n * b);
}

/** A percentage as an integer of thousandths of a percent; RangeError if it has more decimals or is out of range. */
function rateInThousandths(name: string, percent: number, max: number): bigint {
  if (typeof percent !== "number" || !Number.isFinite(percent) || percent < 0 || percent > max) {
    throw new RangeError(`${name} must be a number from 0 to ${max} (got ${String(percent)}).`);
  }
  const scaled = Math.round(percent * RATE_SCALE);
  if (Math.abs(scaled - percent * RATE_SCALE) > 1e-6) {
    throw new RangeError(`${name} may have at most ${TRUTH_IN_LENDING_LIMITS.rateDecimals} decimals (got ${percent}).`);
  }
  return BigInt(scaled);
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function parseDate(value: string): { year: number; month: number; day: number } {
  const match = typeof value === "string" ? DATE.exec(value) : null;
  const [year, month, day] = match ? [Number(match[1]), Number(match[2]), Number(match[3])] : [0, 0, 0];
  if (!match || year < 1900 || year > 2200 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    throw new RangeError(`signedOn must be a calendar date written yyyy-MM-dd (got ${JSON.stringify(value)}).`);
  }
  return { year, month, day };
}

/**
 * The date `months` months after `date`, on the same day of the month, or the month's last day when it has
 * no such day. Always counted from `date` itself, not from the previous payment, so a loan signed on
 * January 31 falls due on February 28 (29), then March 31: Appendix J (b)(3)(iv) counts each as a full month.
 */
export function addMonths(date: string, months: number): string {
  if (!Number.isInteger(months) || months < 0) throw new RangeError(`months must be a whole number, 0 or more (got ${String(months)}).`);
  const { year, month, day } = parseDate(date);
  const index = month - 1 + months;
  const y = year + Math.floor(index / 12);
  const m = (((index % 12) + 12) % 12) + 1;
  const d = Math.min(day, daysInMonth(y, m));
  return `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
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
    noteRate: rateInThousandths("noteRatePercent", input.noteRatePercent, limits.maxNoteRatePercent),
    feeRate: rateInThousandths("originationFeePercent", input.originationFeePercent, limits.maxOriginationFeePercent),
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
 * The disclosure of a loan of `amountCents` at `noteRatePercent` for `termMonths` monthly payments, the
 * first due one month after `signedOn`, with an origination fee of `originationFeePercent` of the amount
 * (a prepaid finance charge: it is deducted from the amount financed, so it raises the APR above the note
 * rate). Interest is charged each month on the running balance at the note rate, rounded half-up; the
 * regular payment repays the rest, the last payment whatever is left, so the balance ends at exactly 0.
 * Throws a RangeError on inputs out of range, or when the rounded regular payment would repay the loan
 * before its last month, never reduce it, or leave a last payment larger than two regular ones (a
 * balloon, which this disclosure does not describe). Rounding to cents compounds at the note rate, so
 * this happens at high rates over long terms on small amounts ($5,000 at 35.99 % for 360 months).
 */
export function disclosure(input: DisclosureInput): Disclosure {
  const { noteRate, feeRate } = validate(input);
  const { amountCents, termMonths, signedOn } = input;
  const originationFeeCents = Number(divideHalfUp(BigInt(amountCents) * feeRate, 100n * BigInt(RATE_SCALE)));
  const amountFinancedCents = amountCents - originationFeeCents;
  if (amountFinancedCents < 1) throw new RangeError("The origination fee leaves no amount financed.");

  // The product's one payment formula, so an offer shows the calculator's installment.
  const paymentCents = installmentCents(amountCents, Number(noteRate), termMonths);
  const monthlyDivisor = 12n * 100n * BigInt(RATE_SCALE);
  const schedule: PaymentRow[] = [];
  let balance = amountCents;
  for (let number = 1; number <= termMonths; number++) {
    const interestCents = Number(divideHalfUp(BigInt(balance) * noteRate, monthlyDivisor));
    const last = number === termMonths;
    const principalCents = last ? balance : paymentCents - interestCents;
    if (!last && (principalCents <= 0 || principalCents >= balance)) {
      throw new RangeError(
        `A regular payment of ${paymentCents} cents cannot repay ${amountCents} cents over ${termMonths} months at ${input.noteRatePercent} %: ` +
          "after rounding to cents it would end the loan early or never reduce it. Choose a larger amount, a lower rate or a shorter term.",
      );
    }
    balance -= principalCents;
    schedule.push({ number, dueDate: addMonths(signedOn, number), paymentCents: principalCents + interestCents, principalCents, interestCents, balanceCents: balance });
  }
  const lastPayment = schedule.at(-1)!.paymentCents;
  if (lastPayment > 2 * paymentCents) {
    throw new RangeError(
      `The last payment would be ${lastPayment} cents against a regular ${paymentCents}: a balloon payment. Choose a larger amount, a lower rate or a shorter term.`,
    );
  }

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
