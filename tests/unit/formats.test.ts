import { describe, expect, it } from "vitest";
import {
  caretAfterFormat,
  dateFormatter,
  digitsOnly,
  formatAmountInput,
  formatDollarAmount,
  formatFileSize,
  formatPercent,
  formatPhone,
  formatSsn,
  formatUsd,
  parseAmountInput,
} from "~/domain/formats";
import { CALCULATOR_DEFAULTS, estimateLoan } from "~/domain/loan-math";

describe("formatUsd", () => {
  it("shows US dollars with cents and thousands separators", () => {
    expect(formatUsd(1025.83)).toBe("$1,025.83");
    expect(formatUsd(61549.8)).toBe("$61,549.80");
    expect(formatUsd(0)).toBe("$0.00");
    expect(formatUsd(1_234_567.891)).toBe("$1,234,567.89");
  });
  it("reads numeric strings and survives junk", () => {
    expect(formatUsd("50000")).toBe("$50,000.00");
    expect(formatUsd("not a number")).toBe("$0.00");
    expect(formatUsd(Number.NaN)).toBe("$0.00");
    expect(formatUsd(-0.001)).toBe("$0.00");
  });
  it("can drop the cents", () => {
    expect(formatUsd(50_000, { cents: false })).toBe("$50,000");
    expect(formatUsd(999.6, { cents: false })).toBe("$1,000");
  });
  it("shows the spec's default calculator figures", () => {
    const e = estimateLoan(CALCULATOR_DEFAULTS.amount, CALCULATOR_DEFAULTS.ratePercent, CALCULATOR_DEFAULTS.termMonths)!;
    expect([formatUsd(e.monthlyPayment), formatUsd(e.totalPayment), formatUsd(e.totalInterest)]).toEqual([
      "$1,025.83",
      "$61,549.80",
      "$11,549.80",
    ]);
  });
});

describe("formatDollarAmount", () => {
  // It replaces Intl (whose first use loads locale data during page start-up): the same text, always.
  it("matches Intl's en-US currency format, with and without cents", () => {
    const intl = (digits: 0 | 2) =>
      new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: digits, maximumFractionDigits: digits });
    const values = [0, -0, 0.005, 0.015, 1.005, 2.5, -2.5, 0.5, 999.995, 1025.83, 61549.8, -0.3, 1e15 + 0.5, 123456789.125, 1e21, -1e22];
    let seed = 42;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 2000; i++) values.push((random() - 0.3) * 10 ** Math.floor(random() * 10), Math.round(random() * 1e6) / 1000);
    for (const value of values) {
      expect(formatDollarAmount(value, 2), String(value)).toBe(intl(2).format(value));
      expect(formatDollarAmount(value, 0), String(value)).toBe(intl(0).format(value));
    }
  });
});

describe("amount input", () => {
  it("keeps digits only and groups thousands", () => {
    expect(formatAmountInput("50000")).toBe("50,000");
    expect(formatAmountInput("1234567")).toBe("1,234,567");
    expect(formatAmountInput("12a3,4.5")).toBe("12,345");
    expect(formatAmountInput("$999")).toBe("999");
    expect(formatAmountInput(50000)).toBe("50,000");
  });
  it("drops leading zeros but keeps a lone zero, and gives '' for no digits", () => {
    expect(formatAmountInput("0050000")).toBe("50,000");
    expect(formatAmountInput("0")).toBe("0");
    expect(formatAmountInput("000")).toBe("0");
    expect(formatAmountInput("")).toBe("");
    expect(formatAmountInput("abc")).toBe("");
  });
  it("parses what it shows", () => {
    expect(parseAmountInput("50,000")).toBe(50000);
    expect(parseAmountInput("")).toBe(0);
    expect(parseAmountInput("1,234,567")).toBe(1234567);
    for (const n of [0, 7, 1000, 987654321]) expect(parseAmountInput(formatAmountInput(n))).toBe(n);
  });
  it("puts the caret back after the same digit", () => {
    // "5000|0" typed "5" at the end of "5000" → "50,000", caret after 5 digits = end.
    expect(caretAfterFormat("50,000", 5)).toBe(6);
    // Caret after the first digit of "1,234".
    expect(caretAfterFormat("1,234", 1)).toBe(1);
    // After the second digit: the comma is skipped over.
    expect(caretAfterFormat("1,234", 2)).toBe(3);
    expect(caretAfterFormat("1,234", 0)).toBe(0);
    expect(caretAfterFormat("1,234", 9)).toBe(5);
  });
  it("digitsOnly strips everything else", () => {
    expect(digitsOnly("(555) 123-4567")).toBe("5551234567");
  });
});

describe("formatPhone", () => {
  it("formats a full number as (XXX) XXX-XXXX", () => {
    expect(formatPhone("5551234567")).toBe("(555) 123-4567");
    expect(formatPhone("555.123.4567")).toBe("(555) 123-4567");
    expect(formatPhone("(555) 123-4567")).toBe("(555) 123-4567");
  });
  it("formats partial input as far as it goes", () => {
    expect(formatPhone("")).toBe("");
    expect(formatPhone("5")).toBe("(5");
    expect(formatPhone("555")).toBe("(555");
    expect(formatPhone("5551")).toBe("(555) 1");
    expect(formatPhone("555123")).toBe("(555) 123");
    expect(formatPhone("5551234")).toBe("(555) 123-4");
  });
  it("stops at 10 digits (14 characters) and drops a leading country code 1", () => {
    expect(formatPhone("555123456789")).toBe("(555) 123-4567");
    expect(formatPhone("15551234567")).toBe("(555) 123-4567");
    expect(formatPhone("+1 555 123 4567")).toBe("(555) 123-4567");
    expect(formatPhone("99999999999999").length).toBe(14);
  });
});

describe("formatSsn", () => {
  it("formats as XXX-XX-XXXX, partial input as far as it goes", () => {
    expect(formatSsn("123456789")).toBe("123-45-6789");
    expect(formatSsn("123-45-6789")).toBe("123-45-6789");
    expect(formatSsn("123")).toBe("123");
    expect(formatSsn("1234")).toBe("123-4");
    expect(formatSsn("12345")).toBe("123-45");
    expect(formatSsn("123456")).toBe("123-45-6");
    expect(formatSsn("")).toBe("");
  });
  it("keeps at most 9 digits (11 characters)", () => {
    expect(formatSsn("1234567890123")).toBe("123-45-6789");
    expect(formatSsn("a1b2c3d4e5f6g7h8i9")).toBe("123-45-6789");
  });
});

describe("formatFileSize", () => {
  it("uses B under a kilobyte, then KB and MB with one decimal", () => {
    expect(formatFileSize(0)).toBe("0 B");
    expect(formatFileSize(512)).toBe("512 B");
    expect(formatFileSize(1023)).toBe("1023 B");
    expect(formatFileSize(1024)).toBe("1.0 KB");
    expect(formatFileSize(1536)).toBe("1.5 KB");
    expect(formatFileSize(250_000)).toBe("244.1 KB");
    expect(formatFileSize(1024 * 1024)).toBe("1.0 MB");
    expect(formatFileSize(5 * 1024 * 1024)).toBe("5.0 MB");
    expect(formatFileSize(4.84 * 1024 * 1024)).toBe("4.8 MB");
  });
  it("never shows 1024.0 KB, and handles nonsense", () => {
    expect(formatFileSize(1024 * 1024 - 1)).toBe("1.0 MB");
    expect(formatFileSize(-5)).toBe("0 B");
    expect(formatFileSize(Number.NaN)).toBe("0 B");
  });
});

describe("formatPercent", () => {
  it("shows up to two decimals", () => {
    expect(formatPercent(8.5)).toBe("8.5%");
    expect(formatPercent(5.99)).toBe("5.99%");
    expect(formatPercent(35.999)).toBe("36%");
  });
});

describe("dateFormatter", () => {
  it("builds one formatter per set of options and formats in the zone asked for", () => {
    const utc = dateFormatter({ dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
    expect(dateFormatter({ dateStyle: "medium", timeStyle: "short", timeZone: "UTC" })).toBe(utc);
    const newYork = dateFormatter({ dateStyle: "medium", timeStyle: "short", timeZone: "America/New_York" });
    expect(newYork).not.toBe(utc);
    const instant = new Date("2026-01-05T19:03:00Z");
    expect(utc.format(instant)).toBe("Jan 5, 2026, 7:03 PM");
    expect(newYork.format(instant)).toBe("Jan 5, 2026, 2:03 PM");
    expect(() => dateFormatter({ timeZone: "Not/AZone" })).toThrow(RangeError);
  });
});
