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
