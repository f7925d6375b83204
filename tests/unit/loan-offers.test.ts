import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ESIGN_CONSENT_SECTIONS, ESIGN_CONSENT_VERSION, esignConsentText } from "~/domain/esign-consent";
import { isCounteroffer, OFFER_STATUS_LABELS, OFFER_STATUSES, offerStatusLabel } from "~/domain/loan-offers";
import { centsFromDollars, formatRate, rateFromPercent } from "~/domain/money";
import { approveSchema, reviewFormValues } from "~/domain/validation/review";

describe("offer statuses", () => {
  it("labels every status with the issue's words", () => {
    expect(OFFER_STATUSES.map((s) => OFFER_STATUS_LABELS[s])).toEqual(["Offered", "Signed", "Declined", "Expired", "Withdrawn"]);
    expect(offerStatusLabel("nonsense")).toBe("Unknown");
  });
});

describe("Counteroffer (Reg B 1002.9(a)(1)(iv)): terms other than requested", () => {
  const requested = { amountCents: 5_000_000, rateMilli: 8500, termMonths: 60 };
  it("less money, a higher rate or another term is a counteroffer", () => {
    expect(isCounteroffer(requested, { amountCents: 4_999_999, noteRateMilli: 8500, termMonths: 60 })).toBe(true);
    expect(isCounteroffer(requested, { amountCents: 5_000_000, noteRateMilli: 8501, termMonths: 60 })).toBe(true);
    expect(isCounteroffer(requested, { amountCents: 5_000_000, noteRateMilli: 8500, termMonths: 48 })).toBe(true);
    expect(isCounteroffer(requested, { amountCents: 5_000_000, noteRateMilli: 8500, termMonths: 72 })).toBe(true);
  });
  it("the same terms, more money or a lower rate is not", () => {
    expect(isCounteroffer(requested, { amountCents: 5_000_000, noteRateMilli: 8500, termMonths: 60 })).toBe(false);
    expect(isCounteroffer(requested, { amountCents: 6_000_000, noteRateMilli: 7250, termMonths: 60 })).toBe(false);
  });
});

describe("exact units", () => {
  it("dollars with two decimals become integer cents exactly (no binary drift)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99_999_999_999 }), (cents) => {
        expect(centsFromDollars(Number((cents / 100).toFixed(2)))).toBe(cents);
      }),
    );
    expect(centsFromDollars(0.29)).toBe(29);
    expect(centsFromDollars(150_949_992.45)).toBe(15_094_999_245);
    expect(() => centsFromDollars(1.001)).toThrow(RangeError);
  });
  it("percents with up to three decimals become thousandths and print back the same", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), (milli) => {
        const shown = formatRate(milli);
        expect(rateFromPercent(Number(shown))).toBe(milli);
      }),
    );
    expect(formatRate(8500)).toBe("8.50");
    expect(formatRate(8125)).toBe("8.125");
    expect(formatRate(12_340)).toBe("12.34");
    expect(formatRate(0)).toBe("0.00");
    expect(() => rateFromPercent(8.1234)).toThrow(RangeError);
  });
});

describe("the approve form (issue 20)", () => {
  const form = (entries: [string, string][]) => {
    const data = new FormData();
    for (const [k, v] of entries) data.append(k, v);
    return approveSchema.safeParse(reviewFormValues(data));
  };
  const base: [string, string][] = [
    ["intent", "approve"],
    ["applicationId", "7b0c0a8e-3a5e-4c36-9f59-2a0f1c9b6d11"],
    ["approvedAmount", "40,000"],
    ["interestRate", "9"],
    ["termMonths", "48"],
  ];
  it("requires Origination Fee (%) from 0 to 10 with at most two decimals", () => {
    expect(form(base).success).toBe(false);
    expect(form([...base, ["originationFeePercent", "2.5"]]).success).toBe(true);
    expect(form([...base, ["originationFeePercent", "0"]]).success).toBe(true);
    for (const bad of ["10.01", "-1", "2.555", "abc", ""]) expect(form([...base, ["originationFeePercent", bad]]).success).toBe(false);
  });
  it("keeps the counteroffer reasons in the list's order, adds Other, refuses unknown ones", () => {
    const parsed = form([
      ...base,
      ["originationFeePercent", "1"],
      ["counterofferReasons", "Insufficient collateral"],
      ["counterofferReasons", "Insufficient income"],
      ["counterofferOther", "  Loan-to-value   above 80%  "],
    ]);
    expect(parsed.success && parsed.data.counterofferReasons).toEqual(["Insufficient income", "Insufficient collateral", "Loan-to-value above 80%"]);
    expect(form([...base, ["originationFeePercent", "1"], ["counterofferReasons", "Because"]]).success).toBe(false);
    expect(form([...base, ["originationFeePercent", "1"], ["counterofferOther", "bad\u0007bell"]]).success).toBe(false);
  });
  it("refuses terms over 480 months (the disclosure's limit)", () => {
    const over = base.map(([k, v]) => (k === "termMonths" ? [k, "481"] : [k, v])) as [string, string][];
    expect(form([...over, ["originationFeePercent", "1"]]).success).toBe(false);
  });
});

describe("E-SIGN consent text (15 U.S.C. 7001(c))", () => {
  it("covers what is delivered, the hardware and software, paper copies and withdrawal", () => {
    const headings = ESIGN_CONSENT_SECTIONS.map((s) => s.heading);
    expect(headings).toEqual(["What we will provide electronically", "Hardware and software you need", "Paper copies", "Withdrawing your consent"]);
    expect(esignConsentText()).toMatch(/paper copy/);
    expect(esignConsentText()).toMatch(/Withdraw E-SIGN Consent/);
  });
  it("a changed word needs a new version: the version is pinned to the text's hash", () => {
    // When this fails you changed the consent text: give it a new ESIGN_CONSENT_VERSION and update
    // both values here. Consents already given keep the version they were given under.
    const hash = createHash("sha256").update(esignConsentText()).digest("hex").slice(0, 16);
    expect({ version: ESIGN_CONSENT_VERSION, hash }).toEqual({ version: "2026-11-24.1", hash });
    expect(hash).toBe(PINNED_HASH);
  });
});

const PINNED_HASH = "9c8082bd1fdd1953";
