import { describe, expect, it } from "vitest";
import { applyLink, isCompleteEstimate, parsePriorEstimate } from "~/domain/calculator-link";

function parse(link: string) {
  return parsePriorEstimate(new URL(link, "http://localhost").searchParams);
}

describe("the calculator-to-wizard link", () => {
  it("writes the calculator's figures as /apply?loanAmount=..&interestRate=..&loanTerm=..&monthlyPayment=..", () => {
    expect(applyLink({ amount: 50_000, ratePercent: 8.5, termMonths: 60, monthlyPayment: 1025.8312 })).toBe(
      "/apply?loanAmount=50000&interestRate=8.5&loanTerm=60&monthlyPayment=1025.83",
    );
  });

  it("round-trips: what the calculator writes, the wizard reads back complete", () => {
    for (const figures of [
      { amount: 50_000, ratePercent: 8.5, termMonths: 60, monthlyPayment: 1025.83 },
      { amount: 5_000, ratePercent: 5.99, termMonths: 6, monthlyPayment: 847.1 },
      { amount: 2_000_000, ratePercent: 35.99, termMonths: 360, monthlyPayment: 59_983.33 },
    ]) {
      const estimate = parse(applyLink(figures));
      expect(isCompleteEstimate(estimate)).toBe(true);
      expect(estimate).toEqual({
        loanAmount: figures.amount,
        interestRate: figures.ratePercent,
        loanTerm: figures.termMonths,
        monthlyPayment: figures.monthlyPayment,
      });
    }
  });

  it("drops what it does not understand", () => {
    expect(parse("/apply?loanAmount=abc&interestRate=900&loanTerm=7&monthlyPayment=-1")).toBeNull();
    expect(parse("/apply?loanAmount=%2450%2C000&loanTerm=60")).toEqual({ loanAmount: 50_000, loanTerm: 60 });
  });
});
