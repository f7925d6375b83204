import { describe, expect, it } from "vitest";
import { addBankingDays, federalReserveHolidays, isBankingDay, nextBankingDay } from "~/domain/banking-days";

/**
 * The ACH effective entry date lands on a day the Federal Reserve settles: the holidays below are the
 * Federal Reserve Banks' published holiday schedule for 2026 and 2027, written out by hand (not computed),
 * so the rules that compute them are checked against the calendar a bank uses.
 */

const PUBLISHED = {
  2026: [
    "2026-01-01", // New Year's Day (Thursday)
    "2026-01-19", // Martin Luther King Jr. Day
    "2026-02-16", // Washington's Birthday
    "2026-05-25", // Memorial Day
    "2026-06-19", // Juneteenth (Friday)
    // Independence Day is a Saturday: the Fed is open Friday 3 July.
    "2026-09-07", // Labor Day
    "2026-10-12", // Columbus Day
    "2026-11-11", // Veterans Day (Wednesday)
    "2026-11-26", // Thanksgiving Day
    "2026-12-25", // Christmas Day (Friday)
  ],
  2027: [
    "2027-01-01", // New Year's Day (Friday)
    "2027-01-18", // Martin Luther King Jr. Day
    "2027-02-15", // Washington's Birthday
    "2027-05-31", // Memorial Day
    // Juneteenth is a Saturday: nothing closes.
    "2027-07-05", // Independence Day, Sunday 4 July observed on Monday
    "2027-09-06", // Labor Day
    "2027-10-11", // Columbus Day
    "2027-11-11", // Veterans Day (Thursday)
    "2027-11-25", // Thanksgiving Day
    // Christmas Day is a Saturday: nothing closes (and New Year's Day 2028 too).
  ],
} as const;

describe("Federal Reserve holidays", () => {
  it.each([2026, 2027] as const)("%i: exactly the published holidays", (year) => {
    expect(federalReserveHolidays(year)).toEqual(PUBLISHED[year]);
    for (const day of PUBLISHED[year]) expect(isBankingDay(day), day).toBe(false);
  });

  it("a holiday on a Saturday moves nothing: the Friday before and the Monday after are banking days", () => {
    for (const day of ["2026-07-03", "2026-07-06", "2027-06-18", "2027-06-21", "2027-12-24", "2027-12-27", "2027-12-31"]) expect(isBankingDay(day), day).toBe(true);
  });

  it("a holiday on a Sunday closes the Monday after, not the Friday before", () => {
    expect(isBankingDay("2027-07-02")).toBe(true);
    expect(isBankingDay("2027-07-05")).toBe(false);
    expect(isBankingDay("2027-07-06")).toBe(true);
    // New Year's Day 2023 and Christmas 2022 fell on Sundays.
    expect(isBankingDay("2023-01-02")).toBe(false);
    expect(isBankingDay("2022-12-26")).toBe(false);
  });

  it("every other weekday of both years is a banking day; no Saturday or Sunday is", () => {
    const holidays = new Set<string>([...PUBLISHED[2026], ...PUBLISHED[2027]]);
    let banking = 0;
    for (let t = Date.UTC(2026, 0, 1); t <= Date.UTC(2027, 11, 31); t += 86_400_000) {
      const day = new Date(t).toISOString().slice(0, 10);
      const dow = new Date(t).getUTCDay();
      expect(isBankingDay(day), day).toBe(dow !== 0 && dow !== 6 && !holidays.has(day));
      if (isBankingDay(day)) banking++;
    }
    // 2026: 261 weekdays − 10 holidays; 2027: 261 weekdays − 9 (Juneteenth and Christmas on Saturdays).
    expect(banking).toBe(251 + 252);
  });
});

describe("nextBankingDay", () => {
  it("skips the weekend", () => {
    expect(nextBankingDay("2026-11-24")).toBe("2026-11-25"); // Tuesday → Wednesday
    expect(nextBankingDay("2026-11-27")).toBe("2026-11-30"); // Friday → Monday
    expect(nextBankingDay("2026-11-28")).toBe("2026-11-30"); // Saturday → Monday
    expect(nextBankingDay("2026-11-29")).toBe("2026-11-30"); // Sunday → Monday
  });

  it("skips holidays, and a holiday next to a weekend", () => {
    expect(nextBankingDay("2026-11-25")).toBe("2026-11-27"); // over Thanksgiving
    expect(nextBankingDay("2026-12-24")).toBe("2026-12-28"); // Christmas Friday, then the weekend
    expect(nextBankingDay("2026-12-31")).toBe("2027-01-04"); // New Year's Day Friday, then the weekend
    expect(nextBankingDay("2027-07-02")).toBe("2027-07-06"); // weekend, then Independence Day observed Monday
    expect(nextBankingDay("2026-01-16")).toBe("2026-01-20"); // weekend, then Martin Luther King Jr. Day
    expect(nextBankingDay("2026-07-02")).toBe("2026-07-03"); // Saturday's Independence Day closes no Friday
  });

  it("is never the day itself, even when that day is a banking day", () => {
    expect(nextBankingDay("2026-12-07")).toBe("2026-12-08");
  });
});

describe("addBankingDays (a prenote's wait)", () => {
  it("is the day itself for 0 and counts only banking days", () => {
    expect(addBankingDays("2026-12-07", 0)).toBe("2026-12-07");
    // Monday + 2 banking days: Wednesday.
    expect(addBankingDays("2026-12-07", 2)).toBe("2026-12-09");
  });

  it("skips weekends", () => {
    // Thursday 3 Dec 2026 + 2: Friday 4, Monday 7.
    expect(addBankingDays("2026-12-03", 2)).toBe("2026-12-07");
    // From a Saturday: Monday, Tuesday.
    expect(addBankingDays("2026-12-05", 2)).toBe("2026-12-08");
  });

  it("skips holidays (Thanksgiving, Christmas, New Year's Day)", () => {
    // Wednesday 25 Nov 2026 + 2: Thanksgiving (26th) is closed, so Friday 27, Monday 30.
    expect(addBankingDays("2026-11-25", 2)).toBe("2026-11-30");
    // Thursday 24 Dec 2026 + 2: Christmas Friday closed, so Monday 28, Tuesday 29.
    expect(addBankingDays("2026-12-24", 2)).toBe("2026-12-29");
    // Thursday 31 Dec 2026 + 1: New Year's Day Friday 2027 closed, so Monday 4 Jan 2027.
    expect(addBankingDays("2026-12-31", 1)).toBe("2027-01-04");
  });

  it("refuses a negative or fractional count", () => {
    expect(() => addBankingDays("2026-12-07", -1)).toThrow(RangeError);
    expect(() => addBankingDays("2026-12-07", 1.5)).toThrow(RangeError);
  });
});
