/**
 * Loan arithmetic shared by the calculator, the application's review step and loan approvals.
 * Pure functions, no I/O. Money is computed in floating point and rounded to cents at the edges,
 * as the spec's figures are (50,000 at 8.5 % for 60 months: $1,025.83 a month).
 */

export const CALCULATOR_DEFAULTS = { amount: 50_000, ratePercent: 8.5, termMonths: 60 } as const;
export const RATE_BOUNDS = { min: 5.99, max: 35.99, step: 0.01 } as const;

export function roundCents(value: number): number {
  return Math.round((value + Number.EPSILON) * 100) / 100;
}

/**
 * The standard amortised payment: P·r / (1 − (1 + r)^−n) with r the monthly rate (annual ÷ 12),
 * rounded to cents. A 0 % loan repays the principal in equal parts.
 */
export function monthlyPayment(principal: number, annualRatePercent: number, termMonths: number): number {
  if (!(principal > 0) || !(termMonths > 0) || !Number.isFinite(principal) || !Number.isFinite(annualRatePercent)) return 0;
  const r = annualRatePercent / 100 / 12;
  if (r === 0) return roundCents(principal / termMonths);
  return roundCents((principal * r) / (1 - Math.pow(1 + r, -termMonths)));
}

export type LoanEstimate = { monthlyPayment: number; totalPayment: number; totalInterest: number };

/** The calculator's three figures; null when amount or term is not above zero (no results shown). */
export function estimateLoan(principal: number, annualRatePercent: number, termMonths: number): LoanEstimate | null {
  if (!(principal > 0) || !(termMonths > 0) || !Number.isFinite(annualRatePercent) || annualRatePercent < 0) return null;
  const payment = monthlyPayment(principal, annualRatePercent, termMonths);
  const totalPayment = roundCents(payment * termMonths);
  return { monthlyPayment: payment, totalPayment, totalInterest: roundCents(totalPayment - principal) };
}

export type ScheduleRow = { month: number; payment: number; principal: number; interest: number; balance: number };

/**
 * Month-by-month amortisation. Interest is charged on the running balance each month (rounded to
 * cents); the last payment absorbs the rounding so the balance ends at exactly zero.
 */
export function amortizationSchedule(principal: number, annualRatePercent: number, termMonths: number): ScheduleRow[] {
  const payment = monthlyPayment(principal, annualRatePercent, termMonths);
  if (payment === 0) return [];
  const r = annualRatePercent / 100 / 12;
  const rows: ScheduleRow[] = [];
  let balance = principal;
  for (let month = 1; month <= termMonths; month++) {
    const interest = roundCents(balance * r);
    const last = month === termMonths;
    const principalPart = last ? roundCents(balance) : roundCents(Math.min(payment - interest, balance));
    balance = roundCents(balance - principalPart);
    rows.push({ month, payment: roundCents(principalPart + interest), principal: principalPart, interest, balance });
  }
  return rows;
}

export type YearRow = { year: number; payment: number; principal: number; interest: number; balance: number; months: ScheduleRow[] };

/** The schedule grouped by year (the calculator shows years, expandable to months). */
export function yearlySchedule(rows: ScheduleRow[]): YearRow[] {
  const years: YearRow[] = [];
  for (const row of rows) {
    const year = Math.ceil(row.month / 12);
    let current = years[year - 1];
    if (!current) {
      current = { year, payment: 0, principal: 0, interest: 0, balance: row.balance, months: [] };
      years.push(current);
    }
    current.payment = roundCents(current.payment + row.payment);
    current.principal = roundCents(current.principal + row.principal);
    current.interest = roundCents(current.interest + row.interest);
    current.balance = row.balance;
    current.months.push(row);
  }
  return years;
}
