import { LOAN_DURATIONS, type EmploymentStatus, type LoanType } from "~/domain/enums";
import { centsFromDollars, formatMoney, type Cents } from "~/domain/money";
import { LOAN_TYPE_LABELS } from "~/domain/labels";
import { LOAN_RANGES } from "~/domain/loan-ranges";

/**
 * The lending rules an application must meet beyond its format: each loan type's advertised range,
 * a routing number that is a real ABA number, a Social Security Number the SSA could have issued, and
 * who must name an employer. Pure, so the wizard (in the browser) and the server apply the same rules.
 */

export { LARGEST_LOAN_AMOUNT, LOAN_RANGES, type LoanRange } from "~/domain/loan-ranges";

const dollars = (n: number) => formatMoney(centsFromDollars(n), { cents: false });

/** "Personal Loan amounts are from $5,000 to $5,000,000." */
export function amountRangeMessage(loanType: LoanType): string {
  const { minAmount, maxAmount } = LOAN_RANGES[loanType];
  return `${LOAN_TYPE_LABELS[loanType]} amounts are from ${dollars(minAmount)} to ${dollars(maxAmount)}.`;
}

/** "Hard Money / Bridge Loan terms are from 6 to 36 months." */
export function termRangeMessage(loanType: LoanType): string {
  const { minMonths, maxMonths } = LOAN_RANGES[loanType];
  return `${LOAN_TYPE_LABELS[loanType]} terms are from ${minMonths} to ${maxMonths} months.`;
}

/** Whether an amount in cents (as the wizard's schema outputs it) is within the loan type's range. */
export function isAmountInRange(loanType: LoanType, amountCents: Cents): boolean {
  const { minAmount, maxAmount } = LOAN_RANGES[loanType];
  return amountCents >= centsFromDollars(minAmount) && amountCents <= centsFromDollars(maxAmount);
}

export function isTermInRange(loanType: LoanType, months: number): boolean {
  const { minMonths, maxMonths } = LOAN_RANGES[loanType];
  return months >= minMonths && months <= maxMonths;
}

/** The durations the wizard offers for a loan type (every duration while none is chosen). */
export function durationsFor(loanType: LoanType | undefined): readonly number[] {
  return loanType ? LOAN_DURATIONS.filter((months) => isTermInRange(loanType, months)) : LOAN_DURATIONS;
}

/**
 * A Social Security Number the SSA issues (nine digits, dashes optional): never area 000, 666 or
 * 900-999, group 00 or serial 0000.
 */
export function isValidSsn(value: string): boolean {
  const match = /^(\d{3})-?(\d{2})-?(\d{4})$/.exec(value);
  if (!match) return false;
  const [area, group, serial] = [Number(match[1]), match[2]!, match[3]!];
  return area !== 0 && area !== 666 && area < 900 && group !== "00" && serial !== "0000";
}

/** Statuses without a current employer: Employer Name is optional for them. */
export const NO_EMPLOYER_STATUSES = ["retired", "unemployed"] as const satisfies readonly EmploymentStatus[];

export function employerRequired(status: string): boolean {
  return !(NO_EMPLOYER_STATUSES as readonly string[]).includes(status);
}
