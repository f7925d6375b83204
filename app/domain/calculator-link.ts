import { LOAN_DURATIONS } from "./enums";

/**
 * The link from the loan calculator to the application wizard, both directions:
 * /apply?loanAmount=50000&interestRate=8.5&loanTerm=60&monthlyPayment=1025.83. The calculator writes
 * it (`applyLink`), the wizard reads it (`parsePriorEstimate`) and pre-fills amount, rate and term.
 * tests/unit/calculator-link.test.ts checks the round trip. Pure, no I/O.
 */

/** The calculator's figures as the link carries them. */
export type CalculatorFigures = { amount: number; ratePercent: number; termMonths: number; monthlyPayment: number };

/** /apply?loanAmount=50000&interestRate=8.5&loanTerm=60&monthlyPayment=1025.83 */
export function applyLink(figures: CalculatorFigures): string {
  const params = new URLSearchParams({
    loanAmount: String(figures.amount),
    interestRate: String(figures.ratePercent),
    loanTerm: String(figures.termMonths),
    monthlyPayment: figures.monthlyPayment.toFixed(2),
  });
  return `/apply?${params.toString()}`;
}

export type PriorEstimate = {
  loanAmount?: number;
  interestRate?: number;
  loanTerm?: number;
  monthlyPayment?: number;
};

const MONEY_PATTERN = /^\d{1,12}(\.\d{1,2})?$/;

function readMoney(raw: string | null): number | undefined {
  const text = raw?.trim().replace(/[$,\s]/g, "");
  if (!text || !MONEY_PATTERN.test(text)) return undefined;
  return Number(text);
}

/**
 * The calculator's figures from /apply?loanAmount=..&interestRate=..&loanTerm=..&monthlyPayment=..
 * Each one is kept only when it is a sensible value (garbage is dropped); null when none is.
 */
export function parsePriorEstimate(params: URLSearchParams): PriorEstimate | null {
  const estimate: PriorEstimate = {};
  const amount = readMoney(params.get("loanAmount"));
  if (amount !== undefined && amount > 0) estimate.loanAmount = amount;
  const rateText = params.get("interestRate")?.trim() ?? "";
  if (/^\d{1,3}(\.\d{1,4})?$/.test(rateText)) {
    const rate = Number(rateText);
    if (rate > 0 && rate <= 100) estimate.interestRate = rate;
  }
  const termText = params.get("loanTerm")?.trim() ?? "";
  if (/^\d{1,3}$/.test(termText) && (LOAN_DURATIONS as readonly number[]).includes(Number(termText))) {
    estimate.loanTerm = Number(termText);
  }
  const payment = readMoney(params.get("monthlyPayment"));
  if (payment !== undefined) estimate.monthlyPayment = payment;
  return Object.keys(estimate).length > 0 ? estimate : null;
}

export type CompleteEstimate = Required<PriorEstimate>;

export function isCompleteEstimate(estimate: PriorEstimate | null | undefined): estimate is CompleteEstimate {
  return (
    estimate != null &&
    estimate.loanAmount !== undefined &&
    estimate.interestRate !== undefined &&
    estimate.loanTerm !== undefined &&
    estimate.monthlyPayment !== undefined
  );
}

/** Identifies an estimate, so a reload does not apply (and announce) the same one twice. */
export function estimateKey(estimate: CompleteEstimate): string {
  return [estimate.loanAmount, estimate.interestRate, estimate.loanTerm, estimate.monthlyPayment].join("|");
}

