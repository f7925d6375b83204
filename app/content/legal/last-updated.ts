/**
 * The legal pages show 'Last Updated' with the current date (docs/requirements.md §2), computed on the server at
 * render time, in the server's own time zone (set TZ for the process to pin it, e.g. TZ=America/New_York).
 */

/** "Nov 22, 2026" (en-US, the one date format: formatDay). `timeZone` defaults to the process's time zone. */
export function formatLegalDate(date: Date = new Date(), timeZone?: string): string {
  return new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", timeZone }).format(date);
}
