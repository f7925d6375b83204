/**
 * Banking days as the ACH network keeps them: the Federal Reserve settles ACH entries Monday to Friday
 * except its holidays, so an entry's effective date must be one of those days (a bank rolls any other
 * date forward, and the borrower would be debited a day later than the page said). Pure: days are
 * 'yyyy-MM-dd' in UTC, like every calendar day in the product (dates.ts).
 */

import { addDays } from "./dates";

/** Weekday of a calendar day: 0 Sunday … 6 Saturday. */
function weekday(day: string): number {
  return new Date(`${day}T00:00:00Z`).getUTCDay();
}

function iso(year: number, month: number, date: number): string {
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(date).padStart(2, "0")}`;
}

/** The `n`th `dow` (0 Sunday … 6 Saturday) of a month; n = -1 is the last one. */
function nthWeekday(year: number, month: number, dow: number, n: number): string {
  if (n > 0) {
    const first = iso(year, month, 1);
    return addDays(first, ((dow - weekday(first) + 7) % 7) + (n - 1) * 7);
  }
  const last = addDays(month === 12 ? iso(year + 1, 1, 1) : iso(year, month + 1, 1), -1);
  return addDays(last, -((weekday(last) - dow + 7) % 7));
}

/**
 * A holiday on a fixed date: observed on the Monday after when it falls on a Sunday. On a Saturday the
 * Federal Reserve Banks stay open on the Friday before (unlike federal offices), so nothing is closed.
 */
function fixedHoliday(year: number, month: number, date: number): string[] {
  const day = iso(year, month, date);
  const dow = weekday(day);
  if (dow === 0) return [addDays(day, 1)];
  if (dow === 6) return [];
  return [day];
}

/** The days of `year` the Federal Reserve Banks are closed for a holiday (weekdays only), in order. */
export function federalReserveHolidays(year: number): string[] {
  return [
    ...fixedHoliday(year, 1, 1), // New Year's Day
    nthWeekday(year, 1, 1, 3), // Martin Luther King Jr. Day: third Monday of January
    nthWeekday(year, 2, 1, 3), // Washington's Birthday: third Monday of February
    nthWeekday(year, 5, 1, -1), // Memorial Day: last Monday of May
    // Juneteenth National Independence Day: a Federal Reserve holiday from 2022.
    ...(year >= 2022 ? fixedHoliday(year, 6, 19) : []),
    ...fixedHoliday(year, 7, 4), // Independence Day
    nthWeekday(year, 9, 1, 1), // Labor Day: first Monday of September
    nthWeekday(year, 10, 1, 2), // Columbus Day: second Monday of October
    ...fixedHoliday(year, 11, 11), // Veterans Day
    nthWeekday(year, 11, 4, 4), // Thanksgiving Day: fourth Thursday of November
    ...fixedHoliday(year, 12, 25), // Christmas Day
  ];
}

const holidaysByYear = new Map<number, ReadonlySet<string>>();

/** Whether ACH entries settle on `day`: a weekday that is no Federal Reserve holiday. */
export function isBankingDay(day: string): boolean {
  const dow = weekday(day);
  if (dow === 0 || dow === 6) return false;
  const year = Number(day.slice(0, 4));
  let holidays = holidaysByYear.get(year);
  if (!holidays) {
    holidays = new Set(federalReserveHolidays(year));
    holidaysByYear.set(year, holidays);
  }
  return !holidays.has(day);
}

/** The first banking day after `day` (never `day` itself): an ACH file's effective entry date. */
export function nextBankingDay(day: string): string {
  let next = addDays(day, 1);
  while (!isBankingDay(next)) next = addDays(next, 1);
  return next;
}

/**
 * The `n`th banking day after `day` (n ≥ 0; n = 0 is `day` itself): a prenote's wait is counted in
 * banking days from its effective date, because a receiving bank returns entries only on those days.
 */
export function addBankingDays(day: string, n: number): string {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`addBankingDays needs a whole number of days ≥ 0, got ${n}`);
  let out = day;
  for (let k = 0; k < n; k++) out = nextBankingDay(out);
  return out;
}
