import { describe, expect, it } from "vitest";
import { validateApplicationFields, APPLICATION_MESSAGES } from "~/domain/validation/application";
import { approveSchema, REVIEW_MESSAGES } from "~/domain/validation/review";
import { paymentAmountField } from "~/domain/validation/loan-payments";
import { moneyField, rateField, wholeNumberField } from "~/domain/validation/figure-fields";
import { validFields } from "../helpers/applications";

/** Forms parse money and rates at the boundary: the schemas output cents and thousandths (decision 0078). */

describe("figure fields", () => {
  const money = moneyField("bad amount", { maxWholeDigits: 9, minCents: 1, maxCents: 1_000_000 });
  const rate = rateField("bad rate", { maxWholeDigits: 3, minMilli: 0, maxMilli: 36_000 });
  const months = wholeNumberField("bad term", { maxDigits: 3, min: 1, max: 480 });

  it("reads dollars as integer cents, refusing sub-cent input with the field's message", () => {
    expect(money.parse("$1,000.50")).toBe(100_050);
    expect(money.parse("0.01")).toBe(1);
    expect(money.parse(12.5)).toBe(1250);
    for (const bad of ["0.001", "0", "10000.01", "1e3", "-5", "", "abc"]) {
      expect(money.safeParse(bad).error?.issues.map((i) => i.message), bad).toEqual(["bad amount"]);
    }
  });

  it("reads percents as thousandths and whole numbers as numbers", () => {
    expect(rate.parse("8.5")).toBe(8500);
    expect(rate.parse("35.99")).toBe(35_990);
    expect(rate.safeParse("8.125").success).toBe(false);
    expect(rate.safeParse("36.01").success).toBe(false);
    expect(months.parse("360")).toBe(360);
    expect(months.safeParse("481").success).toBe(false);
  });

  it("the wizard, the approve dialog and Record Payment output cents and thousandths", () => {
    const wizard = validateApplicationFields({ ...validFields, loanAmount: "50,000", desiredInterestRate: "8.5", monthlyIncome: "5,000.25", annualIncome: "", monthlyDebts: "$1,200" });
    expect(wizard.ok && [wizard.value.loanAmount, wizard.value.desiredInterestRate, wizard.value.monthlyIncome, wizard.value.annualIncome, wizard.value.monthlyDebts]).toEqual([
      5_000_000, 8500, 500_025, undefined, 120_000,
    ]);
    const cents = validateApplicationFields({ ...validFields, loanAmount: "50000.50" });
    expect(!cents.ok && cents.problem).toMatchObject({ field: "loanAmount", message: APPLICATION_MESSAGES.amountWholeDollars });

    const approve = approveSchema.parse({
      intent: "approve",
      applicationId: "7b0c0a8e-3a5e-4c36-9f59-2a0f1c9b6d11",
      approvedAmount: "12,500.50",
      interestRate: "11.25",
      termMonths: "60",
      originationFeePercent: "2",
    });
    expect(approve).toMatchObject({ approvedAmountCents: 1_250_050, interestRateMilli: 11_250, termMonths: 60, originationFeeMilli: 2000 });
    expect(approveSchema.safeParse({ intent: "approve", approvedAmount: "1.005" }).error?.issues.find((i) => i.path[0] === "approvedAmount")?.message).toBe(REVIEW_MESSAGES.amount);
    expect(paymentAmountField.parse("1,234.56")).toBe(123_456);
  });
});
