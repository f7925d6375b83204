import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  addMoney,
  allocateMoney,
  centsFromDollars,
  compareMoney,
  formatMoney,
  formatMoneyDecimal,
  formatRate,
  parseMoney,
  percentOf,
  rateFromPercent,
  sumMoney,
} from "~/domain/money";
import { parseRate } from "~/domain/rate-text";

describe("parseMoney: a form's text as integer cents", () => {
  it("reads dollars with or without separators and at most two decimals", () => {
    expect(parseMoney("12345.67")).toBe(1_234_567);
    expect(parseMoney("12,345.67")).toBe(1_234_567);
    expect(parseMoney("$250")).toBe(25_000);
    expect(parseMoney(" 250.5 ")).toBe(25_050);
    expect(parseMoney("0.01")).toBe(1);
    expect(parseMoney("99999999999.99")).toBe(9_999_999_999_999);
  });
  it("refuses what is not one amount", () => {
    for (const text of ["", "abc", "1.234", "1..2", "-5", "1e5", "12.3.4"]) expect(parseMoney(text), text).toBeNull();
    expect(parseMoney("1234567890123")).toBeNull(); // 13 digits before the point
    expect(parseMoney("123456789", { maxDigits: 8 })).toBeNull();
  });
  it("strict grouping takes commas only where thousands separators belong", () => {
    expect(parseMoney("1,234.5", { grouping: "strict" })).toBe(123_450);
    expect(parseMoney("12,34", { grouping: "strict" })).toBeNull();
    expect(parseMoney("12,34")).toBe(123_400);
  });
  it("round-trips every amount it formats", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 99_999_999_999_99 }), (cents) => {
      expect(parseMoney(formatMoney(cents))).toBe(cents);
    }));
  });
});

describe("arithmetic in cents", () => {
  it("adds without binary drift", () => {
    expect(addMoney(10, 20)).toBe(30);
    expect(sumMoney([1, 2, 3])).toBe(6);
    expect(() => addMoney(0.1, 0.2)).toThrow(RangeError);
  });
  it("compares", () => {
    expect([300, 100, 200].sort(compareMoney)).toEqual([100, 200, 300]);
    expect(compareMoney(5, 5)).toBe(0);
  });
  it("allocates every cent, largest remainders first", () => {
    expect(allocateMoney(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(allocateMoney(-100, [1, 1, 1])).toEqual([-34, -33, -33]);
    expect(allocateMoney(5, [1, 3])).toEqual([1, 4]);
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 1, maxLength: 12 }), (total, weights) => {
        const shares = allocateMoney(total, weights);
        expect(shares.reduce((a, b) => a + b, 0)).toBe(total);
        expect(shares.every(Number.isSafeInteger)).toBe(true);
      }),
    );
    expect(() => allocateMoney(1, [])).toThrow(RangeError);
    expect(() => allocateMoney(1, [0, 0])).toThrow(RangeError);
  });
});

describe("formatMoney: the one money formatter", () => {
  it("writes what the pages, e-mails and PDFs have always shown", () => {
    expect(formatMoney(102_583)).toBe("$1,025.83");
    expect(formatMoney(6_154_980)).toBe("$61,549.80");
    expect(formatMoney(5_000_000, { cents: false })).toBe("$50,000");
    expect(formatMoney(25_000_000, { cents: "auto" })).toBe("$250,000");
    expect(formatMoney(25_000_050, { cents: "auto" })).toBe("$250,000.50");
    expect(formatMoney(-123_450)).toBe("-$1,234.50");
    expect(formatMoney(0)).toBe("$0.00");
    expect(formatMoney(150, { cents: false })).toBe("$2"); // half away from zero
    expect(formatMoney(-150, { cents: false })).toBe("-$2");
    expect(formatMoney(9_999_999_999_999)).toBe("$99,999,999,999.99");
  });
  it("matches Intl's en-US dollars for integer cents", () => {
    const intl = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
    fc.assert(fc.property(fc.integer({ min: -1e15, max: 1e15 }), (cents) => {
      expect(formatMoney(cents)).toBe(intl.format(cents / 100));
    }));
  });
  it("refuses anything but integer cents", () => {
    expect(() => formatMoney(1.5)).toThrow(RangeError);
    expect(() => formatMoney(Number.NaN)).toThrow(RangeError);
  });
  it("writes plain decimals for CSV files", () => {
    expect(formatMoneyDecimal(123_450)).toBe("1234.50");
    expect(formatMoneyDecimal(-5)).toBe("-0.05");
    expect(formatMoneyDecimal(0)).toBe("0.00");
  });
  it("takes dollars with two decimals exactly", () => {
    expect(centsFromDollars(1234.5)).toBe(123_450);
    expect(centsFromDollars(99_999_999_999.99)).toBe(9_999_999_999_999);
  });
});

describe("Rate: thousandths of a percent", () => {
  it("parses a form's percent", () => {
    expect(parseRate("8.5")).toBe(8500);
    expect(parseRate("5.99")).toBe(5990);
    expect(parseRate("12")).toBe(12_000);
    expect(parseRate("8.125")).toBeNull();
    expect(parseRate("8.125", { decimals: 3 })).toBe(8125);
    for (const text of ["", "x", "8.", "-1", "1234"]) expect(parseRate(text), text).toBeNull();
  });
  it("formats in the two styles pages use", () => {
    expect(formatRate(8500)).toBe("8.50");
    expect(formatRate(8125)).toBe("8.125");
    expect(formatRate(8500, { style: "short" })).toBe("8.5");
    expect(formatRate(5990, { style: "short" })).toBe("5.99");
    expect(formatRate(12_000, { style: "short" })).toBe("12");
    expect(formatRate(8125, { style: "short" })).toBe("8.13");
  });
  it("converts percents exactly", () => {
    expect(rateFromPercent(8.125)).toBe(8125);
    expect(percentOf(35_990)).toBe(35.99);
    fc.assert(fc.property(fc.integer({ min: 0, max: 100_000 }), (milli) => {
      expect(rateFromPercent(percentOf(milli))).toBe(milli);
    }));
  });
});
