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
  roundCents,
  sumMoney,
  yearlySchedule,
} from "~/domain/loan-math";

/** Whole cents of a dollar figure, to compare sums exactly. */
const cents = (dollars: number) => Math.round(dollars * 100);
const sumCents = (values: number[]) => values.reduce((sum, value) => sum + cents(value), 0);

describe("loan math", () => {
  it("gives the defaults' figures in the spec's words: payment × months, and that total less the principal", () => {
    expect(estimateLoan(50_000, 8.5, 60)).toEqual({ monthlyPayment: 1025.83, totalPayment: 61_549.8, totalInterest: 11_549.8 });
    const rows = amortizationSchedule(50_000, 8.5, 60);
    expect(rows.every((row) => row.payment === 1025.83)).toBe(true);
    // The last row repays what is left; its interest is the payment less that.
    expect(rows.at(-1)).toEqual({ month: 60, payment: 1025.83, principal: 1018.36, interest: 7.47, balance: 0 });
    expect(sumCents(rows.map((r) => r.payment))).toBe(6_154_980);
    expect(sumCents(rows.map((r) => r.interest))).toBe(1_154_980);
    expect(yearlySchedule(rows).at(-1)!.payment).toBe(12_309.96);
  });

  it("repays a 0 % loan in equal parts; the spec's total counts the last payment's rounding as interest", () => {
    expect(monthlyPayment(12_000, 0, 12)).toBe(1000);
    expect(estimateLoan(12_000, 0, 12)).toEqual({ monthlyPayment: 1000, totalPayment: 12_000, totalInterest: 0 });
    // 10,000 / 36 = 277.777…: 36 payments of $277.78 are $10,000.08.
    expect(estimateLoan(10_000, 0, 36)).toEqual({ monthlyPayment: 277.78, totalPayment: 10_000.08, totalInterest: 0.08 });
    expect(amortizationSchedule(10_000, 0, 36).at(-1)).toEqual({ month: 36, payment: 277.78, principal: 277.7, interest: 0.08, balance: 0 });
  });

  it("keeps the cents of an amount: 12,345.67 is not 1,234,567", () => {
    expect(estimateLoan(12_345.67, 8.5, 60)!.monthlyPayment).toBe(253.29);
    expect(sumCents(amortizationSchedule(12_345.67, 8.5, 60).map((r) => r.principal))).toBe(1_234_567);
  });

  it("warns instead of a schedule when the rounded payment never repays: $5,000 at 35.99 % for 360 months", () => {
    expect(repaysInEqualPayments(5_000, 35.99, 360)).toBe(false);
    expect(amortizationSchedule(5_000, 35.99, 360)).toEqual([]);
    expect(repaysInEqualPayments(5_000, 35.99, 60)).toBe(true);
    expect(repaysInEqualPayments(50_000, 8.5, 60)).toBe(true);
    // A one-cent payment on $1 over 360 months would end the loan after 100 months.
    expect(repaysInEqualPayments(1, 5.99, 360)).toBe(false);
  });

  it("shows no results unless amount and term are above zero", () => {
    expect(estimateLoan(0, 8.5, 60)).toBeNull();
    expect(estimateLoan(50_000, 8.5, 0)).toBeNull();
    expect(estimateLoan(-5, 8.5, 60)).toBeNull();
    expect(estimateLoan(Number.NaN, 8.5, 60)).toBeNull();
    expect(estimateLoan(50_000, Number.NaN, 60)).toBeNull();
    expect(amortizationSchedule(0, 8.5, 60)).toEqual([]);
  });

  it("handles the rate bounds and the longest term", () => {
    expect(monthlyPayment(100_000, 5.99, 360)).toBe(598.91);
    expect(monthlyPayment(100_000, 35.99, 6)).toBe(18_459.24);
    expect(estimateLoan(50_000_000, 35.99, 360)!.monthlyPayment).toBeGreaterThan(0);
  });

  it("rounds to cents without binary drift", () => {
    expect(roundCents(1.005)).toBe(1.01);
    expect(roundCents(2.675)).toBe(2.68);
    expect(sumMoney([0.1, 0.2])).toBe(0.3);
  });

  it("builds a schedule that ends at zero and sums to the principal", () => {
    const rows = amortizationSchedule(50_000, 8.5, 60);
    expect(rows).toHaveLength(60);
    expect(rows.at(-1)!.balance).toBe(0);
    expect(sumMoney(rows.map((r) => r.principal))).toBe(50_000);
    expect(rows[0]!.interest).toBe(354.17);
    const years = yearlySchedule(rows);
    expect(years).toHaveLength(5);
    expect(years[0]!.months).toHaveLength(12);
    expect(years.at(-1)!.balance).toBe(0);
  });

  it("every total is the sum of its rows, for any amount, rate and term", () => {
    const amount = fc.oneof(
      fc.integer({ min: 1, max: LOAN_AMOUNT_BOUNDS.max }),
      fc.integer({ min: 1, max: 100_000_00 }).map((c) => c / 100),
    );
    const rate = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 10_000 }).map((basisPoints) => basisPoints / 100));
    const term = fc.oneof(fc.constantFrom(...LOAN_DURATIONS), fc.integer({ min: 1, max: 480 }));
    fc.assert(
      fc.property(amount, rate, term, (principal, ratePercent, termMonths) => {
        const rows = amortizationSchedule(principal, ratePercent, termMonths);
        const estimate = estimateLoan(principal, ratePercent, termMonths)!;
        const years = yearlySchedule(rows);
        // The spec's figures: payment × months, and that total less the principal.
        expect(cents(estimate.totalPayment)).toBe(cents(estimate.monthlyPayment) * termMonths);
        expect(cents(estimate.totalInterest)).toBe(cents(estimate.totalPayment) - cents(principal));
        if (!repaysInEqualPayments(principal, ratePercent, termMonths)) {
          expect(rows).toEqual([]);
          return;
        }
        expect(rows).toHaveLength(termMonths);
        // Every figure is whole cents.
        for (const row of rows) {
          for (const value of [row.payment, row.principal, row.interest, row.balance]) expect(cents(value) / 100).toBe(value);
          expect(cents(row.payment)).toBe(cents(row.principal) + cents(row.interest));
          expect(row.balance).toBeGreaterThanOrEqual(0);
        }
        // Schedule rows → principal and header totals.
        expect(rows.at(-1)!.balance).toBe(0);
        expect(sumCents(rows.map((r) => r.principal))).toBe(cents(principal));
        expect(cents(estimate.totalPayment)).toBe(sumCents(rows.map((r) => r.payment)));
        expect(cents(estimate.totalInterest)).toBe(sumCents(rows.map((r) => r.interest)));
        expect(cents(estimate.totalPayment)).toBe(cents(principal) + cents(estimate.totalInterest));
        expect(estimate.monthlyPayment).toBe(monthlyPayment(principal, ratePercent, termMonths));
        // Yearly rows → their months, and the header totals.
        for (const year of years) {
          expect(cents(year.payment)).toBe(sumCents(year.months.map((m) => m.payment)));
          expect(cents(year.principal)).toBe(sumCents(year.months.map((m) => m.principal)));
          expect(cents(year.interest)).toBe(sumCents(year.months.map((m) => m.interest)));
          expect(year.balance).toBe(year.months.at(-1)!.balance);
        }
        expect(sumCents(years.map((y) => y.payment))).toBe(cents(estimate.totalPayment));
        expect(sumCents(years.map((y) => y.interest))).toBe(cents(estimate.totalInterest));
        for (const row of rows) expect(row.payment).toBe(estimate.monthlyPayment);
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
