/**
 * Calendar days as the product stores and compares them: 'yyyy-MM-dd' in UTC. Due dates, report
 * ranges and retention cut-offs are calendar dates, and a date passes at its end in UTC. Pure: the
 * server, the domain rules and the browser use the same functions.
 */

/** A moment's calendar day in UTC, 'yyyy-MM-dd'. */
export function isoDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** Today in UTC, 'yyyy-MM-dd'. */
export function todayUtc(now: Date = new Date()): string {
  return isoDay(now);
}

/** The calendar day `n` days after `day` ('yyyy-MM-dd'; `n` may be negative). */
export function addDays(day: string, n: number): string {
  return isoDay(new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000));
}

/** Whether `value` is a real calendar day written 'yyyy-MM-dd' (not 2026-02-30). */
export function isRealDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const ms = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(ms) && isoDay(new Date(ms)) === value;
}
