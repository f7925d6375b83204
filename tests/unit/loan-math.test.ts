import { describe, expect, it } from "vitest";
import { amortizationSchedule, estimateLoan, monthlyPayment, roundCents, yearlySchedule } from "~/domain/loan-math";

describe("loan math", () => {
  it("gives the spec's example: 50,000 at 8.5 % for 60 months", () => {
    expect(estimateLoan(50_000, 8.5, 60)).toEqual({ monthlyPayment: 1025.83, totalPayment: 61_549.8, totalInterest: 11_549.8 });
  });

  it("repays a 0 % loan in equal parts", () => {
    expect(monthlyPayment(12_000, 0, 12)).toBe(1000);
    expect(estimateLoan(12_000, 0, 12)).toEqual({ monthlyPayment: 1000, totalPayment: 12_000, totalInterest: 0 });
  });

  it("shows no results unless amount and term are above zero", () => {
    expect(estimateLoan(0, 8.5, 60)).toBeNull();
    expect(estimateLoan(50_000, 8.5, 0)).toBeNull();
    expect(estimateLoan(-5, 8.5, 60)).toBeNull();
    expect(estimateLoan(Number.NaN, 8.5, 60)).toBeNull();
  });

  it("handles the rate bounds and the longest term", () => {
    expect(monthlyPayment(100_000, 5.99, 360)).toBe(598.91);
    expect(monthlyPayment(100_000, 35.99, 6)).toBe(18_459.24);
    expect(estimateLoan(50_000_000, 35.99, 360)!.monthlyPayment).toBeGreaterThan(0);
  });

  it("rounds to cents without binary drift", () => {
    expect(roundCents(1.005)).toBe(1.01);
    expect(roundCents(2.675)).toBe(2.68);
  });

  it("builds a schedule that ends at zero and sums to the principal", () => {
    const rows = amortizationSchedule(50_000, 8.5, 60);
    expect(rows).toHaveLength(60);
    expect(rows.at(-1)!.balance).toBe(0);
    expect(roundCents(rows.reduce((s, r) => s + r.principal, 0))).toBe(50_000);
    expect(rows[0]!.interest).toBe(354.17);
    const years = yearlySchedule(rows);
    expect(years).toHaveLength(5);
    expect(years[0]!.months).toHaveLength(12);
    expect(years.at(-1)!.balance).toBe(0);
  });
});
