import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loans } from "~/content/loans";
import { LOAN_DURATIONS } from "~/domain/enums";
import {
  amortizationSchedule,
  calculatorProblems,
  estimateLoan,
  LOAN_AMOUNT_BOUNDS,
  monthlyPayment,
  RATE_BOUNDS,
  repaysInEqualPayments,
  yearlySchedule,
} from "~/domain/loan-math";
import { roundToCents, sumMoney } from "~/domain/money";

// Amounts are integer cents and rates thousandths of a percent: $50,000 is 5_000_000, 8.5 % is 8500.
const sumCents = (values: number[]) => values.reduce((sum, value) => sum + value, 0);

describe("loan math", () => {
  it("gives the defaults' figures in the spec's words: payment × months, and that total less the principal", () => {
    expect(estimateLoan(5_000_000, 8500, 60)).toEqual({ monthlyPaymentCents: 102_583, totalPaymentCents: 6_154_980, totalInterestCents: 1_154_980 });
    const rows = amortizationSchedule(5_000_000, 8500, 60);
    expect(rows.every((row) => row.paymentCents === 102_583)).toBe(true);
    // The last row repays what is left; its interest is the payment less that.
    expect(rows.at(-1)).toEqual({ month: 60, paymentCents: 102_583, principalCents: 101_836, interestCents: 747, balanceCents: 0 });
    expect(sumCents(rows.map((r) => r.paymentCents))).toBe(6_154_980);
    expect(sumCents(rows.map((r) => r.interestCents))).toBe(1_154_980);
    expect(yearlySchedule(rows).at(-1)!.paymentCents).toBe(1_230_996);
  });

  it("repays a 0 % loan in equal parts; the spec's total counts the last payment's rounding as interest", () => {
    expect(monthlyPayment(1_200_000, 0, 12)).toBe(100_000);
    expect(estimateLoan(1_200_000, 0, 12)).toEqual({ monthlyPaymentCents: 100_000, totalPaymentCents: 1_200_000, totalInterestCents: 0 });
    // 10,000 / 36 = 277.777…: 36 payments of $277.78 are $10,000.08.
    expect(estimateLoan(1_000_000, 0, 36)).toEqual({ monthlyPaymentCents: 27_778, totalPaymentCents: 1_000_008, totalInterestCents: 8 });
    expect(amortizationSchedule(1_000_000, 0, 36).at(-1)).toEqual({ month: 36, paymentCents: 27_778, principalCents: 27_770, interestCents: 8, balanceCents: 0 });
  });

  it("keeps the cents of an amount: 12,345.67 is not 1,234,567", () => {
    expect(estimateLoan(1_234_567, 8500, 60)!.monthlyPaymentCents).toBe(25_329);
    expect(sumCents(amortizationSchedule(1_234_567, 8500, 60).map((r) => r.principalCents))).toBe(1_234_567);
  });

  it("warns instead of a schedule when the rounded payment never repays: $5,000 at 35.99 % for 360 months", () => {
    expect(repaysInEqualPayments(500_000, 35_990, 360)).toBe(false);
    expect(amortizationSchedule(500_000, 35_990, 360)).toEqual([]);
    expect(repaysInEqualPayments(500_000, 35_990, 60)).toBe(true);
    expect(repaysInEqualPayments(5_000_000, 8500, 60)).toBe(true);
    // A one-cent payment on $1 over 360 months would end the loan after 100 months.
    expect(repaysInEqualPayments(100, 5990, 360)).toBe(false);
  });

  it("shows no results unless amount and term are above zero", () => {
    expect(estimateLoan(0, 8500, 60)).toBeNull();
    expect(estimateLoan(5_000_000, 8500, 0)).toBeNull();
    expect(estimateLoan(-500, 8500, 60)).toBeNull();
    expect(estimateLoan(Number.NaN, 8500, 60)).toBeNull();
    expect(estimateLoan(5_000_000, Number.NaN, 60)).toBeNull();
    expect(amortizationSchedule(0, 8500, 60)).toEqual([]);
  });

  it("handles the rate bounds and the longest term", () => {
    expect(monthlyPayment(10_000_000, 5990, 360)).toBe(59_891);
    expect(monthlyPayment(10_000_000, 35_990, 6)).toBe(1_845_924);
    expect(estimateLoan(5_000_000_000, 35_990, 360)!.monthlyPaymentCents).toBeGreaterThan(0);
  });

  it("rounds to cents without binary drift", () => {
    expect(roundToCents(1.005)).toBe(101);
    expect(roundToCents(2.675)).toBe(268);
    expect(sumMoney([10, 20])).toBe(30);
  });

  it("builds a schedule that ends at zero and sums to the principal", () => {
    const rows = amortizationSchedule(5_000_000, 8500, 60);
    expect(rows).toHaveLength(60);
    expect(rows.at(-1)!.balanceCents).toBe(0);
    expect(sumMoney(rows.map((r) => r.principalCents))).toBe(5_000_000);
    expect(rows[0]!.interestCents).toBe(35_417);
    const years = yearlySchedule(rows);
    expect(years).toHaveLength(5);
    expect(years[0]!.months).toHaveLength(12);
    expect(years.at(-1)!.balanceCents).toBe(0);
  });

  it("every total is the sum of its rows, for any amount, rate and term", () => {
    const amount = fc.oneof(
      fc.integer({ min: 1, max: LOAN_AMOUNT_BOUNDS.max }).map((dollars) => dollars * 100),
      fc.integer({ min: 1, max: 100_000_00 }),
    );
    const rate = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 10_000 }).map((basisPoints) => basisPoints * 10));
    const term = fc.oneof(fc.constantFrom(...LOAN_DURATIONS), fc.integer({ min: 1, max: 480 }));
    fc.assert(
      fc.property(amount, rate, term, (principal, rateMilli, termMonths) => {
        const rows = amortizationSchedule(principal, rateMilli, termMonths);
        const estimate = estimateLoan(principal, rateMilli, termMonths)!;
        const years = yearlySchedule(rows);
        // The spec's figures: payment × months, and that total less the principal.
        expect(estimate.totalPaymentCents).toBe(estimate.monthlyPaymentCents * termMonths);
        expect(estimate.totalInterestCents).toBe(estimate.totalPaymentCents - principal);
        if (!repaysInEqualPayments(principal, rateMilli, termMonths)) {
          expect(rows).toEqual([]);
          return;
        }
        expect(rows).toHaveLength(termMonths);
        // Every figure is whole cents.
        for (const row of rows) {
          for (const value of [row.paymentCents, row.principalCents, row.interestCents, row.balanceCents]) expect(Number.isSafeInteger(value)).toBe(true);
          expect(row.paymentCents).toBe(row.principalCents + row.interestCents);
          expect(row.balanceCents).toBeGreaterThanOrEqual(0);
        }
        // Schedule rows → principal and header totals.
        expect(rows.at(-1)!.balanceCents).toBe(0);
        expect(sumCents(rows.map((r) => r.principalCents))).toBe(principal);
        expect(estimate.totalPaymentCents).toBe(sumCents(rows.map((r) => r.paymentCents)));
        expect(estimate.totalInterestCents).toBe(sumCents(rows.map((r) => r.interestCents)));
        expect(estimate.totalPaymentCents).toBe(principal + estimate.totalInterestCents);
        expect(estimate.monthlyPaymentCents).toBe(monthlyPayment(principal, rateMilli, termMonths));
        // Yearly rows → their months, and the header totals.
        for (const year of years) {
          expect(year.paymentCents).toBe(sumCents(year.months.map((m) => m.paymentCents)));
          expect(year.principalCents).toBe(sumCents(year.months.map((m) => m.principalCents)));
          expect(year.interestCents).toBe(sumCents(year.months.map((m) => m.interestCents)));
          expect(year.balanceCents).toBe(year.months.at(-1)!.balanceCents);
        }
        expect(sumCents(years.map((y) => y.paymentCents))).toBe(estimate.totalPaymentCents);
        expect(sumCents(years.map((y) => y.interestCents))).toBe(estimate.totalInterestCents);
        for (const row of rows) expect(row.paymentCents).toBe(estimate.monthlyPaymentCents);
      }),
      { numRuns: 400 },
    );
  });
});

describe("the calculator's limits", () => {
  it("are the smallest and largest loans the site offers", () => {
    expect(LOAN_AMOUNT_BOUNDS).toEqual({
      min: Math.min(...loans.map((loan) => loan.amount.min)),
      max: Math.max(...loans.map((loan) => loan.amount.max)),
    });
  });

  it("refuse an amount above the largest loan, or below the smallest, and a rate outside the range", () => {
    const ok = { amount: 50_000, ratePercent: 8.5, termMonths: 60 };
    expect(calculatorProblems(ok)).toEqual({});
    expect(calculatorProblems({ ...ok, amount: LOAN_AMOUNT_BOUNDS.max })).toEqual({});
    expect(calculatorProblems({ ...ok, amount: LOAN_AMOUNT_BOUNDS.min })).toEqual({});
    expect(calculatorProblems({ ...ok, amount: 999_999_999_999 }).amount).toBe(
      "Our largest loan is $50,000,000. Enter an amount up to $50,000,000.",
    );
    expect(calculatorProblems({ ...ok, amount: 1_000 }).amount).toBe("Our loans start at $5,000. Enter at least $5,000 to apply.");
    // Nothing entered yet is not a problem to report here (the results say what to enter).
    expect(calculatorProblems({ ...ok, amount: 0 })).toEqual({});
    expect(calculatorProblems({ ...ok, ratePercent: Number.NaN })).toEqual({});
    for (const ratePercent of [0, 5.98, 36, 99]) expect(calculatorProblems({ ...ok, ratePercent }).rate).toMatch(/5\.99% to 35\.99%/);
    expect(calculatorProblems({ ...ok, ratePercent: RATE_BOUNDS.min })).toEqual({});
    expect(calculatorProblems({ ...ok, ratePercent: RATE_BOUNDS.max })).toEqual({});
  });
});
