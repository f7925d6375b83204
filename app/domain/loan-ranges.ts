import type { LoanType } from "~/domain/enums";

// Its own module (types only besides the table): the loan pages and the home page's loan cards read the
// advertised ranges without loading the application rules and their messages.

export type LoanRange = { minAmount: number; maxAmount: number; minMonths: number; maxMonths: number };

/** What the site advertises for each loan: app/content/loans.ts builds its figures from this table. */
export const LOAN_RANGES: Record<LoanType, LoanRange> = {
  personal: { minAmount: 5_000, maxAmount: 5_000_000, minMonths: 6, maxMonths: 360 },
  business: { minAmount: 100_000, maxAmount: 50_000_000, minMonths: 6, maxMonths: 360 },
  private: { minAmount: 100_000, maxAmount: 10_000_000, minMonths: 6, maxMonths: 360 },
  "hard-money": { minAmount: 100_000, maxAmount: 50_000_000, minMonths: 6, maxMonths: 36 },
  "debt-consolidation": { minAmount: 50_000, maxAmount: 2_000_000, minMonths: 6, maxMonths: 360 },
  "auto-loans": { minAmount: 10_000, maxAmount: 1_000_000, minMonths: 6, maxMonths: 360 },
  "home-improvement": { minAmount: 50_000, maxAmount: 5_000_000, minMonths: 6, maxMonths: 360 },
};

/** The largest amount any loan offers. */
export const LARGEST_LOAN_AMOUNT = Math.max(...Object.values(LOAN_RANGES).map((r) => r.maxAmount));
