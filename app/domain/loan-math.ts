/**
 * Loan arithmetic shared by the calculator, the application's review step and loan approvals.
 * Pure functions, no I/O. Money is integer cents and rates thousandths of a percent (~/domain/money), in
 * and out. The calculator's figures follow the
 * specification's words: the payment is the amortised payment rounded to cents, the total payment is
 * payment × months and the total interest is total − principal (50,000 at 8.5 % for 60 months:
 * $1,025.83, $61,549.80, $11,549.80). Its schedule adds up to exactly those figures: every row is one
 * payment, its interest is the payment less its principal, and the last row's principal is what is left.
 * The signed disclosure's own schedule (interest by the day, as the ledger charges it, the last payment
 * paying the loan off) is app/domain/loan-schedule.ts, which takes the payment from here.
 */

import { centsFromDollars, formatMoney, hasCents, percentOf, sumMoney, type Cents, type RateMilli } from "./money";

export const CALCULATOR_DEFAULTS = { amount: 50_000, ratePercent: 8.5, termMonths: 60 } as const;
export const RATE_BOUNDS = { min: 5.99, max: 35.99, step: 0.01 } as const;

/**
 * The smallest and the largest loan we offer, in whole dollars: the extremes of the loan types' ranges in
 * app/content/loans.ts (tests/unit/loan-math.test.ts keeps them equal). Kept here, not derived, so the
 * calculator does not ship the loans' page content to the browser.
 */
export const LOAN_AMOUNT_BOUNDS = { min: 5_000, max: 50_000_000 } as const;

function validLoan(principalCents: Cents, rate: RateMilli, termMonths: number): boolean {
  return (
    principalCents > 0 &&
    Number.isSafeInteger(principalCents) &&
    Number.isInteger(termMonths) &&
    termMonths > 0 &&
    Number.isFinite(rate) &&
    rate >= 0
  );
}

/** A rate in thousandths of a percent as a monthly fraction (8500 → 0.085 / 12). */
const monthlyRate = (rate: RateMilli) => percentOf(rate) / PERCENT / 12;
const PERCENT = 100;

/**
 * The regular installment in cents: P·r / (1 − (1 + r)^−n) with r the monthly rate (annual ÷ 12), rounded
 * half-up once; a 0 % loan repays the principal in equal parts. At least a cent. The one payment formula
 * of the product: the calculator, the review step and the Truth in Lending disclosure all use it.
 */
export function installmentCents(principalCents: Cents, rate: RateMilli, termMonths: number): Cents {
  const r = monthlyRate(rate);
  const exact = r === 0 ? principalCents / termMonths : (principalCents * r) / (1 - Math.pow(1 + r, -termMonths));
  return Math.max(1, Math.round(exact));
}

/** The regular monthly installment in cents (0 when the loan is not above zero). */
export function monthlyPayment(principalCents: Cents, rate: RateMilli, termMonths: number): Cents {
  if (!validLoan(principalCents, rate, termMonths)) return 0;
  return installmentCents(principalCents, rate, termMonths);
}

export type ScheduleRow = { month: number; paymentCents: Cents; principalCents: Cents; interestCents: Cents; balanceCents: Cents };

/**
 * Month by month, in cents: interest on the running balance (rounded to cents) decides how much of each
 * payment repays principal; the last row's principal is whatever is left. `repays` is false when the
 * rounded payment cannot repay the loan as a schedule of equal payments: a payment that pays no
 * principal (the rounding eats it: $5,000 at 35.99 % for 360 months), one that would end the loan before
 * its last month, or a balance left for the last month larger than a payment (a balloon).
 */
function scheduleCents(principalCents: Cents, rate: RateMilli, termMonths: number) {
  let balance = principalCents;
  const installment = installmentCents(balance, rate, termMonths);
  const r = monthlyRate(rate);
  const rows: ScheduleRow[] = [];
  let repays = true;
  for (let month = 1; month <= termMonths; month++) {
    const last = month === termMonths;
    const principalPart = last ? balance : installment - Math.round(balance * r);
    if (last ? principalPart > installment : principalPart <= 0 || principalPart >= balance) {
      repays = false;
      break;
    }
    balance -= principalPart;
    rows.push({ month, paymentCents: installment, principalCents: principalPart, interestCents: installment - principalPart, balanceCents: balance });
  }
  return { installment, rows, repays };
}

/** Whether the rounded payment repays these terms in equal payments (false: the calculator warns instead). */
export function repaysInEqualPayments(principalCents: Cents, rate: RateMilli, termMonths: number): boolean {
  return validLoan(principalCents, rate, termMonths) && scheduleCents(principalCents, rate, termMonths).repays;
}

/**
 * Month-by-month amortisation, one row a payment, adding up to the calculator's figures (see the module
 * comment); empty when the loan is not above zero or the payment never repays it.
 */
export function amortizationSchedule(principalCents: Cents, rate: RateMilli, termMonths: number): ScheduleRow[] {
  if (!validLoan(principalCents, rate, termMonths)) return [];
  const { rows, repays } = scheduleCents(principalCents, rate, termMonths);
  return repays ? rows : [];
}

export type LoanEstimate = { monthlyPaymentCents: Cents; totalPaymentCents: Cents; totalInterestCents: Cents };

/**
 * The calculator's three figures, in the specification's words: the rounded payment, payment × months,
 * and that total less the principal. Null when amount or term is not above zero (no results shown).
 */
export function estimateLoan(principalCents: Cents, rate: RateMilli, termMonths: number): LoanEstimate | null {
  if (!validLoan(principalCents, rate, termMonths)) return null;
  const installment = installmentCents(principalCents, rate, termMonths);
  const total = installment * termMonths;
  return { monthlyPaymentCents: installment, totalPaymentCents: total, totalInterestCents: total - principalCents };
}

export type YearRow = { year: number; paymentCents: Cents; principalCents: Cents; interestCents: Cents; balanceCents: Cents; months: ScheduleRow[] };

/** The schedule grouped by year (the calculator shows years, expandable to months). */
export function yearlySchedule(rows: ScheduleRow[]): YearRow[] {
  const years: YearRow[] = [];
  for (let start = 0; start < rows.length; start += 12) {
    const months = rows.slice(start, start + 12);
    years.push({
      year: start / 12 + 1,
      paymentCents: sumMoney(months.map((m) => m.paymentCents)),
      principalCents: sumMoney(months.map((m) => m.principalCents)),
      interestCents: sumMoney(months.map((m) => m.interestCents)),
      balanceCents: months.at(-1)!.balanceCents,
      months,
    });
  }
  return years;
}

/** Loans are made in whole dollars: the calculator and the application refuse cents with this. */
export const LOAN_AMOUNT_WHOLE_DOLLARS = "Please enter the loan amount in whole dollars, without cents";

/** Shown instead of the figures and the schedule when the rounded payment never repays the loan. */
export const NEVER_REPAYS_WARNING =
  "At this amount, rate and term the monthly payment, rounded to the cent, would never repay the loan: a large final payment would be left. Choose a larger amount, a lower rate or a shorter term.";

export type CalculatorInput = { amount: number; ratePercent: number; termMonths: number };

/**
 * What stops an estimate from going on to the application, per field: an amount with cents (loans are
 * whole dollars), an amount outside the loans we offer or a rate outside our range. Above the largest loan there is no estimate at all (the figures
 * would be meaningless); below the smallest, or at another rate, the figures still show.
 */
export function calculatorProblems(input: CalculatorInput): { amount?: string; rate?: string } {
  const problems: { amount?: string; rate?: string } = {};
  const dollars = (value: number) => formatMoney(centsFromDollars(value), { cents: false });
  if (Number.isNaN(input.amount) || hasCents(input.amount)) {
    problems.amount = LOAN_AMOUNT_WHOLE_DOLLARS;
  } else if (input.amount > LOAN_AMOUNT_BOUNDS.max) {
    problems.amount = `Our largest loan is ${dollars(LOAN_AMOUNT_BOUNDS.max)}. Enter an amount up to ${dollars(LOAN_AMOUNT_BOUNDS.max)}.`;
  } else if (input.amount > 0 && input.amount < LOAN_AMOUNT_BOUNDS.min) {
    problems.amount = `Our loans start at ${dollars(LOAN_AMOUNT_BOUNDS.min)}. Enter at least ${dollars(LOAN_AMOUNT_BOUNDS.min)} to apply.`;
  }
  const rate = input.ratePercent;
  if (Number.isFinite(rate) && rate >= 0 && (rate < RATE_BOUNDS.min || rate > RATE_BOUNDS.max)) {
    problems.rate = `Our rates run from ${RATE_BOUNDS.min}% to ${RATE_BOUNDS.max}%. Enter a rate in that range to apply.`;
  }
  return problems;
}
