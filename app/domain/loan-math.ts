/**
 * Loan arithmetic shared by the calculator, the application's review step and loan approvals.
 * Pure functions, no I/O. Money is worked in integer cents: each installment is rounded once and the
 * last one absorbs the rounding, so every total is exactly the sum of its rows (the spec's example,
 * 50,000 at 8.5 % for 60 months, pays $1,025.83 a month and $1,025.57 in the last month).
 */

import { formatUsd } from "./formats";

export const CALCULATOR_DEFAULTS = { amount: 50_000, ratePercent: 8.5, termMonths: 60 } as const;
export const RATE_BOUNDS = { min: 5.99, max: 35.99, step: 0.01 } as const;

/**
 * The smallest and the largest loan we offer, in whole dollars: the extremes of the loan types' ranges in
 * app/content/loans.ts (tests/unit/loan-math.test.ts keeps them equal). Kept here, not derived, so the
 * calculator does not ship the loans' page content to the browser.
 */
export const LOAN_AMOUNT_BOUNDS = { min: 5_000, max: 50_000_000 } as const;

export function roundCents(value: number): number {
  return Math.round((value + Number.EPSILON) * 100) / 100;
}

function toCents(dollars: number): number {
  return Math.round(roundCents(dollars) * 100);
}

/** Adds amounts of money without binary drift (in cents). */
export function sumMoney(values: Iterable<number>): number {
  let cents = 0;
  for (const value of values) cents += toCents(value);
  return cents / 100;
}

function validLoan(principal: number, annualRatePercent: number, termMonths: number): boolean {
  return (
    principal > 0 &&
    Number.isFinite(principal) &&
    Number.isInteger(termMonths) &&
    termMonths > 0 &&
    Number.isFinite(annualRatePercent) &&
    annualRatePercent >= 0
  );
}

/**
 * The regular installment in cents: P·r / (1 − (1 + r)^−n) with r the monthly rate (annual ÷ 12), rounded
 * once; a 0 % loan repays the principal in equal parts. At least a cent, so every loan gets repaid.
 */
function installmentCents(principalCents: number, annualRatePercent: number, termMonths: number): number {
  const r = annualRatePercent / 100 / 12;
  const exact = r === 0 ? principalCents / termMonths : (principalCents * r) / (1 - Math.pow(1 + r, -termMonths));
  return Math.max(1, Math.round(exact));
}

/** The regular monthly installment in dollars (0 when the loan is not above zero). */
export function monthlyPayment(principal: number, annualRatePercent: number, termMonths: number): number {
  if (!validLoan(principal, annualRatePercent, termMonths)) return 0;
  return installmentCents(toCents(principal), annualRatePercent, termMonths) / 100;
}

export type ScheduleRow = { month: number; payment: number; principal: number; interest: number; balance: number };

/**
 * Month-by-month amortisation. Interest is charged on the running balance each month (rounded to cents);
 * the regular installment repays the rest, and the last one whatever is left, so the balance ends at zero.
 */
export function amortizationSchedule(principal: number, annualRatePercent: number, termMonths: number): ScheduleRow[] {
  if (!validLoan(principal, annualRatePercent, termMonths)) return [];
  let balance = toCents(principal);
  const installment = installmentCents(balance, annualRatePercent, termMonths);
  const r = annualRatePercent / 100 / 12;
  const rows: ScheduleRow[] = [];
  for (let month = 1; month <= termMonths; month++) {
    const interest = Math.round(balance * r);
    const principalPart = month === termMonths ? balance : Math.min(Math.max(installment - interest, 0), balance);
    balance -= principalPart;
    rows.push({ month, payment: (principalPart + interest) / 100, principal: principalPart / 100, interest: interest / 100, balance: balance / 100 });
  }
  return rows;
}

export type LoanEstimate = { monthlyPayment: number; totalPayment: number; totalInterest: number };

/**
 * The calculator's three figures; null when amount or term is not above zero (no results shown). The
 * totals are the schedule's: what the installments add up to, the last one included.
 */
export function estimateLoan(principal: number, annualRatePercent: number, termMonths: number): LoanEstimate | null {
  const rows = amortizationSchedule(principal, annualRatePercent, termMonths);
  if (rows.length === 0) return null;
  return {
    monthlyPayment: rows[0]!.payment,
    totalPayment: sumMoney(rows.map((row) => row.payment)),
    totalInterest: sumMoney(rows.map((row) => row.interest)),
  };
}

export type YearRow = { year: number; payment: number; principal: number; interest: number; balance: number; months: ScheduleRow[] };

/** The schedule grouped by year (the calculator shows years, expandable to months). */
export function yearlySchedule(rows: ScheduleRow[]): YearRow[] {
  const years: YearRow[] = [];
  for (let start = 0; start < rows.length; start += 12) {
    const months = rows.slice(start, start + 12);
    years.push({
      year: start / 12 + 1,
      payment: sumMoney(months.map((m) => m.payment)),
      principal: sumMoney(months.map((m) => m.principal)),
      interest: sumMoney(months.map((m) => m.interest)),
      balance: months.at(-1)!.balance,
      months,
    });
  }
  return years;
}

export type CalculatorInput = { amount: number; ratePercent: number; termMonths: number };

/**
 * What stops an estimate from going on to the application, per field: an amount outside the loans we
 * offer or a rate outside our range. Above the largest loan there is no estimate at all (the figures
 * would be meaningless); below the smallest, or at another rate, the figures still show.
 */
export function calculatorProblems(input: CalculatorInput): { amount?: string; rate?: string } {
  const problems: { amount?: string; rate?: string } = {};
  const dollars = (value: number) => formatUsd(value, { cents: false });
  if (input.amount > LOAN_AMOUNT_BOUNDS.max) {
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
