import { describe, expect, it } from "vitest";
import { caretAfterFormat, dateFormatter, digitsOnly, formatAmountInput, formatCount, formatDate, formatDateTime, formatDay, formatFileSize, formatMoment, formatPercent, formatPhone, formatSsn, formatTime, formatUsd, formatUtcDateTime } from "~/domain/formats";
import { centsFromDollars, formatDollarAmount, formatMoney, hasCents, parseAmountInput, rateFromPercent } from "~/domain/money";
import { CALCULATOR_DEFAULTS, estimateLoan } from "~/domain/loan-math";
import { expectResults } from "../helpers/expect-results";

describe("formatDay and formatMoment: the one date format people read", () => {
  it("writes a calendar day as that day, wherever the reader is", () => {
    expect(formatDay("2027-01-05")).toBe("Jan 5, 2027");
    expect(formatDay("2026-12-12")).toBe("Dec 12, 2026");
    expect(formatDay("2056-12-05")).toBe("Dec 5, 2056");
  });

  it("writes a moment as its day in UTC, the same way", () => {
    expect(formatDay("2027-01-05T23:30:00.000Z")).toBe("Jan 5, 2027");
    expect(formatDay("2027-01-05T23:30:00-05:00")).toBe("Jan 6, 2027");
    expect(formatDay(new Date(Date.UTC(2026, 10, 27, 18, 5)))).toBe("Nov 27, 2026");
    // Intl agrees.
    const d = new Date(Date.UTC(2027, 0, 5, 12));
    expect(formatDay(d)).toBe(d.toLocaleDateString("en-US", { dateStyle: "medium", timeZone: "UTC" }));
  });

  it("adds the time in UTC for a moment", () => {
    expect(formatMoment("2027-01-05T15:04:00Z")).toBe("Jan 5, 2027, 3:04 PM UTC");
    expect(formatMoment(new Date(Date.UTC(2027, 0, 5, 0, 7)))).toBe("Jan 5, 2027, 12:07 AM UTC");
  });

  it("never shows the machine format or a malformed value", () => {
    for (const bad of ["", "soon", "2027-13-05", "2027-01-40"]) expect(formatDay(bad), bad).toBe("—");
    expect(formatDay(new Date(Number.NaN))).toBe("—");
    expect(formatMoment("not a date")).toBe("—");
    expect(formatMoment(new Date(Number.NaN))).toBe("—");
  });
});

describe("formatUsd", () => {
  it("shows US dollars with cents and thousands separators", () => {
    expectResults(formatUsd, [
      [1025.83, "$1,025.83"],
      [61549.8, "$61,549.80"],
      [0, "$0.00"],
      [1_234_567.891, "$1,234,567.89"],
    ]);
  });
  it("reads numeric strings and survives junk", () => {
    expectResults(formatUsd, [
      ["50000", "$50,000.00"],
      ["not a number", "$0.00"],
      [Number.NaN, "$0.00"],
      [-0.001, "$0.00"],
    ]);
  });
  it("can drop the cents", () => {
    expect(formatUsd(50_000, { cents: false })).toBe("$50,000");
    expect(formatUsd(999.6, { cents: false })).toBe("$1,000");
  });
  it("shows the spec's default calculator figures", () => {
    const e = estimateLoan(centsFromDollars(CALCULATOR_DEFAULTS.amount), rateFromPercent(CALCULATOR_DEFAULTS.ratePercent), CALCULATOR_DEFAULTS.termMonths)!;
    expect([formatMoney(e.monthlyPaymentCents), formatMoney(e.totalPaymentCents), formatMoney(e.totalInterestCents)]).toEqual([
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

describe("formatCount and formatUtcDateTime (decision 0052: no Intl while a signed-in page starts)", () => {
  it("formatCount writes what toLocaleString('en-US') writes", () => {
    const values = [0, -0, 7, 999, 1000, -1000, 2000, 12345, 999999, 1000000, -987654321, Number.MAX_SAFE_INTEGER, 1.5, -2.25, 1e21, NaN, Infinity];
    for (const value of values) expect(formatCount(value), String(value)).toBe(value.toLocaleString("en-US"));
    expect(formatCount(2000)).toBe("2,000");
  });

  it("formatUtcDateTime writes what toLocaleString('en-US', { dateStyle, timeStyle: 'short', timeZone: 'UTC' }) writes", () => {
    const moments = ["2026-11-27T18:05:00Z", "2026-01-02T00:05:59.999Z", "2026-12-31T12:00:00Z", "2026-06-30T11:59:00Z", "2000-02-29T23:59:00Z", "1999-09-09T09:09:09Z"];
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 500; i++) moments.push(new Date(Date.UTC(1990, 0, 1) + Math.floor(random() * 60 * 365 * 86_400_000)).toISOString());
    for (const iso of moments) {
      const date = new Date(iso);
      const intl = (dateStyle: "medium" | "long") => `${date.toLocaleString("en-US", { dateStyle, timeStyle: "short", timeZone: "UTC" })} UTC`;
      expect(formatUtcDateTime(iso, "medium"), iso).toBe(intl("medium"));
      expect(formatUtcDateTime(iso, "long"), iso).toBe(intl("long"));
      expect(formatUtcDateTime(iso, "date"), iso).toBe(date.toLocaleDateString("en-US", { dateStyle: "long", timeZone: "UTC" }));
    }
    expect(formatUtcDateTime("2026-11-27T18:05:00Z", "medium")).toBe("Nov 27, 2026, 6:05 PM UTC");
    // formatDate, formatDateTime and formatTime take the same hand-written path in UTC.
    const utc = (options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat("en-US", { ...options, timeZone: "UTC" });
    const day = { year: "numeric", month: "short", day: "numeric" } as const;
    const clock = { hour: "numeric", minute: "2-digit" } as const;
    for (const iso of moments) {
      const date = new Date(iso);
      expect(formatDate(iso, "UTC"), iso).toBe(utc(day).format(date));
      expect(formatDateTime(iso, "UTC"), iso).toBe(utc({ ...day, ...clock }).format(date));
      expect(formatDateTime(iso, "UTC", { seconds: true }), iso).toBe(utc({ ...day, ...clock, second: "2-digit" }).format(date));
      expect(formatDateTime(iso, "UTC", { zone: true }), iso).toBe(utc({ ...day, ...clock, timeZoneName: "short" }).format(date));
      expect(formatDateTime(iso, "UTC", { seconds: true, zone: true }), iso).toBe(utc({ ...day, ...clock, second: "2-digit", timeZoneName: "short" }).format(date));
      expect(formatTime(iso, "UTC"), iso).toBe(utc({ hour: "numeric", minute: "2-digit", second: "2-digit" }).format(date));
    }
    // Another zone still goes through Intl.
    expect(formatDateTime("2026-11-27T18:05:00Z", "America/New_York", { zone: true })).toBe("Nov 27, 2026, 1:05 PM EST");
    expect(formatDate("invalid", "UTC")).toBe("—");
    expect(formatUtcDateTime("2026-11-27T00:05:00Z", "long")).toBe("November 27, 2026 at 12:05 AM UTC");
    expect(formatUtcDateTime("not a date", "long")).toBe("—");
  });
});

describe("amount input", () => {
  it("keeps digits only and groups thousands", () => {
    expectResults(formatAmountInput, [
      ["50000", "50,000"],
      ["1234567", "1,234,567"],
      ["12a3,4", "1,234"],
      ["$999", "999"],
      [50000, "50,000"],
    ]);
  });
  it("keeps a decimal point and its digits as typed, never folding cents into dollars", () => {
    expectResults(formatAmountInput, [
      ["12345.67", "12,345.67"],
      ["12a3,4.5", "1,234.5"],
      ["12345.", "12,345."],
      [".5", "0.5"],
      [12345.67, "12,345.67"],
    ]);
    expectResults(parseAmountInput, [
      ["12,345.67", 12345.67],
      ["12,345.", 12345],
      ["0.5", 0.5],
      ["1.2.3", Number.NaN],
    ]);
    expect(hasCents(12345.67)).toBe(true);
    expect(hasCents(12345)).toBe(false);
  });
  it("drops leading zeros but keeps a lone zero, and gives '' for no digits", () => {
    expectResults(formatAmountInput, [
      ["0050000", "50,000"],
      ["0", "0"],
      ["000", "0"],
      ["", ""],
      ["abc", ""],
    ]);
  });
  it("parses what it shows", () => {
    expectResults(parseAmountInput, [
      ["50,000", 50000],
      ["", 0],
      ["1,234,567", 1234567],
    ]);
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
    // The decimal point counts: "12,345.|" after typing "." at the end of "12,345".
    expect(caretAfterFormat("12,345.", 6)).toBe(7);
  });
  it("digitsOnly strips everything else", () => {
    expect(digitsOnly("(555) 123-4567")).toBe("5551234567");
  });
});

describe("formatPhone", () => {
  it("formats a full number as (XXX) XXX-XXXX", () => {
    expectResults(formatPhone, [
      ["5551234567", "(555) 123-4567"],
      ["555.123.4567", "(555) 123-4567"],
      ["(555) 123-4567", "(555) 123-4567"],
    ]);
  });
  it("formats partial input as far as it goes", () => {
    expectResults(formatPhone, [
      ["", ""],
      ["5", "(5"],
      ["555", "(555"],
      ["5551", "(555) 1"],
      ["555123", "(555) 123"],
      ["5551234", "(555) 123-4"],
    ]);
  });
  it("stops at 10 digits (14 characters) and drops a leading country code 1", () => {
    expectResults(formatPhone, [
      ["555123456789", "(555) 123-4567"],
      ["15551234567", "(555) 123-4567"],
      ["+1 555 123 4567", "(555) 123-4567"],
    ]);
    expect(formatPhone("99999999999999").length).toBe(14);
  });
});

describe("formatSsn", () => {
  it("formats as XXX-XX-XXXX, partial input as far as it goes", () => {
    expectResults(formatSsn, [
      ["123456789", "123-45-6789"],
      ["123-45-6789", "123-45-6789"],
      ["123", "123"],
      ["1234", "123-4"],
      ["12345", "123-45"],
      ["123456", "123-45-6"],
      ["", ""],
    ]);
  });
  it("keeps at most 9 digits (11 characters)", () => {
    expectResults(formatSsn, [
      ["1234567890123", "123-45-6789"],
      ["a1b2c3d4e5f6g7h8i9", "123-45-6789"],
    ]);
  });
});

describe("formatFileSize", () => {
  it("uses B under a kilobyte, then KB and MB with one decimal", () => {
    expectResults(formatFileSize, [
      [0, "0 B"],
      [512, "512 B"],
      [1023, "1023 B"],
      [1024, "1.0 KB"],
      [1536, "1.5 KB"],
      [250_000, "244.1 KB"],
      [1024 * 1024, "1.0 MB"],
      [5 * 1024 * 1024, "5.0 MB"],
      [4.84 * 1024 * 1024, "4.8 MB"],
    ]);
  });
  it("never shows 1024.0 KB, and handles nonsense", () => {
    expectResults(formatFileSize, [
      [1024 * 1024 - 1, "1.0 MB"],
      [-5, "0 B"],
      [Number.NaN, "0 B"],
    ]);
  });
});

describe("formatPercent", () => {
  it("shows up to two decimals", () => {
    expectResults(formatPercent, [
      [8.5, "8.5%"],
      [5.99, "5.99%"],
      [35.999, "36%"],
    ]);
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
