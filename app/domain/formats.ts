/**
 * Display formats shared by the calculator, the contact form and the application wizard.
 * Pure functions, no I/O, safe in the browser and on the server.
 */

import { formatDollarNumber } from "./money";

/** US dollars from a number of dollars: formatUsd(1025.83) → "$1,025.83" (see formatDollarNumber in ./money). */
export function formatUsd(amount: number | string, options: { cents?: boolean } = {}): string {
  return formatDollarNumber(amount, options);
}

const dateFormatters = new Map<string, Intl.DateTimeFormat>();

/**
 * An en-US date formatter for these options, built once: building one costs a fraction of a
 * millisecond, and a dashboard or an admin page formats dozens of dates per render (it was the
 * largest single cost of rendering them). An unknown time zone throws, as the constructor does.
 */
export function dateFormatter(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = JSON.stringify(options);
  let formatter = dateFormatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", options);
    dateFormatters.set(key, formatter);
  }
  return formatter;
}

/** Only the digits of a string ("$50,000.7a" → "500007"). */
export function digitsOnly(value: string): string {
  return value.replace(/\D+/g, "");
}

/**
 * What an amount input shows while typing: digits grouped by thousands, no leading zeros ("0050000" →
 * "50,000", "12a34" → "1,234", "" → "", "0" → "0"). A decimal point and the digits after it are kept as
 * typed ("12345.67" → "12,345.67"): dropping the point would turn $12,345.67 into $1,234,567, so the
 * amount's rule (whole dollars, or cents) gets to judge what was really typed.
 */
export function formatAmountInput(value: string | number): string {
  const text = String(value);
  const point = text.indexOf(".");
  const whole = digitsOnly(point < 0 ? text : text.slice(0, point)).replace(/^0+(?=\d)/, "");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return point < 0 ? grouped : `${grouped || "0"}.${digitsOnly(text.slice(point + 1))}`;
}

/**
 * Where the caret belongs after reformatting: keep the same number of digits (and decimal point) to
 * its left. `digitsBefore` is how many of them were left of the caret in the raw (typed) value.
 */
export function caretAfterFormat(formatted: string, digitsBefore: number): number {
  if (digitsBefore <= 0) return 0;
  let seen = 0;
  for (let i = 0; i < formatted.length; i++) {
    if (/[\d.]/.test(formatted[i]!)) seen++;
    if (seen === digitsBefore) return i + 1;
  }
  return formatted.length;
}

/**
 * US phone as typed: "(555) 123-4567" (at most 10 digits, at most 14 characters); partial input is
 * formatted as far as it goes ("555" → "(555", "5551" → "(555) 1"). A leading country code 1 on an
 * 11-digit number is dropped.
 */
export function formatPhone(value: string): string {
  let digits = digitsOnly(value);
  if (digits.length === 11 && digits.startsWith("1")) digits = digits.slice(1);
  digits = digits.slice(0, 10);
  if (digits.length === 0) return "";
  if (digits.length <= 3) return `(${digits}`;
  if (digits.length <= 6) return `(${digits.slice(0, 3)}) ${digits.slice(3)}`;
  return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
}

/** SSN as typed: "XXX-XX-XXXX" (at most 9 digits, 11 characters); partial input formatted as far as it goes. */
export function formatSsn(value: string): string {
  const digits = digitsOnly(value).slice(0, 9);
  if (digits.length <= 3) return digits;
  if (digits.length <= 5) return `${digits.slice(0, 3)}-${digits.slice(3)}`;
  return `${digits.slice(0, 3)}-${digits.slice(3, 5)}-${digits.slice(5)}`;
}

/**
 * A file size for people: "512 B", "1.5 KB", "4.8 MB" (1 KB = 1024 bytes; KB and MB with one
 * decimal: "2.0 KB"). Negative or non-finite sizes show as "0 B".
 */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return "0 B";
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  const kb = bytes / 1024;
  // 1,048,575 bytes would round to "1024.0 KB": show it as MB instead.
  if (Math.round(kb * 10) / 10 < 1024) return `${kb.toFixed(1)} KB`;
  return `${(kb / 1024).toFixed(1)} MB`;
}

/** Percent with up to two decimals: 8.5 → "8.5%", 5.99 → "5.99%". */
export function formatPercent(value: number): string {
  return `${Number.isFinite(value) ? Number(value.toFixed(2)) : 0}%`;
}

/**
 * A whole number with en-US thousands separators ("2,000"), without Intl for the reason given at
 * formatDollarAmount (~/domain/money): a count in a module's top-level message or a character counter was the first Intl
 * use of the application page, about 60 ms of a phone's main thread while it starts (decision 0052).
 * Same output as `value.toLocaleString("en-US")` for safe integers; anything else goes to Intl.
 */
export function formatCount(value: number): string {
  if (!Number.isSafeInteger(value)) return value.toLocaleString("en-US");
  const sign = value < 0 || Object.is(value, -0) ? "-" : "";
  return sign + String(Math.abs(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/**
 * A moment in UTC as en-US writes it, with " UTC": "Nov 27, 2026, 6:05 PM UTC" (`medium`) or
 * "November 27, 2026 at 6:05 PM UTC" (`long`); `date` leaves the time out ("November 27, 2026"). The
 * same text as `toLocaleString("en-US", { dateStyle, timeStyle: "short", timeZone: "UTC" })`, built by
 * hand: building that formatter was the largest single task of /account's start-up on a phone (decision
 * 0052). tests/unit/formats.test.ts compares the two. "—" for a value that is not a date.
 */
export function formatUtcDateTime(iso: string, style: "medium" | "long" | "date"): string {
  const date = parseDate(iso);
  if (!date) return "—";
  const day = utcDay(date, style === "medium" ? "short" : "long");
  if (style === "date") return day;
  return `${day}${style === "medium" ? "," : " at"} ${utcClock(date, false)} UTC`;
}

/**
 * The one date format people read here (pages, e-mails, PDFs, statements, tables): "Jan 5, 2027".
 * A calendar day ("2027-01-05": a due date, a received date) is that day wherever the reader is; a
 * moment (an ISO timestamp or a Date) is its day in UTC. The machine format 2027-01-05 stays for
 * exports, CSV, NACHA and attributes such as <time dateTime>. "—" for a value that is not a date.
 */
export function formatDay(value: string | Date): string {
  const day = typeof value === "string" ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : null;
  if (day) {
    const month = MONTHS[Number(day[2]) - 1];
    return month && Number(day[3]) >= 1 && Number(day[3]) <= 31 ? `${month.slice(0, 3)} ${Number(day[3])}, ${day[1]}` : "—";
  }
  const date = typeof value === "string" ? parseDate(value) : Number.isNaN(value.getTime()) ? null : value;
  return date ? utcDay(date, "short") : "—";
}

/** A moment with its time, the same format with the clock in UTC: "Jan 5, 2027, 3:04 PM UTC". */
export function formatMoment(value: string | Date): string {
  return formatUtcDateTime(typeof value === "string" ? value : Number.isNaN(value.getTime()) ? "" : value.toISOString(), "medium");
}

/** "Nov 27, 2026" (short) or "November 27, 2026" (long), in UTC, as en-US writes it. */
function utcDay(date: Date, month: "short" | "long"): string {
  const name = MONTHS[date.getUTCMonth()]!;
  return `${month === "short" ? name.slice(0, 3) : name} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
}

/** "6:05 PM" or "6:05:09 PM", in UTC, as en-US writes it. */
function utcClock(date: Date, seconds: boolean): string {
  const hours = date.getUTCHours();
  const two = (n: number) => String(n).padStart(2, "0");
  return `${hours % 12 || 12}:${two(date.getUTCMinutes())}${seconds ? `:${two(date.getUTCSeconds())}` : ""} ${hours < 12 ? "AM" : "PM"}`;
}

/** A Date from an ISO string, or null when it is not a date (shown as "—"). */
function parseDate(iso: string): Date | null {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/*
 * In UTC (every date while a page renders on the server and hydrates: useDisplayTimeZone) the three
 * formatters below write the text by hand, the same as Intl's (tests/unit/formats.test.ts compares
 * them): a signed-in page's first Intl formatter loads ICU's data, about 60 ms of a phone's main thread
 * in the middle of hydration (decision 0052). Another zone goes to Intl, after hydration.
 */

/** "Nov 22, 2026" (en-US) in the given IANA time zone; "—" for a value that is not a date. */
export function formatDate(iso: string, timeZone: string): string {
  const date = parseDate(iso);
  if (date && timeZone === "UTC") return utcDay(date, "short");
  return date ? dateFormatter({ year: "numeric", month: "short", day: "numeric", timeZone }).format(date) : "—";
}

/**
 * "Nov 22, 2026, 3:04 PM" in the given time zone; `seconds` adds them ("3:04:05 PM"), `zone` the zone's
 * short name ("3:04 PM UTC"). "—" for a value that is not a date.
 */
export function formatDateTime(iso: string, timeZone: string, { seconds = false, zone = false }: { seconds?: boolean; zone?: boolean } = {}): string {
  const date = parseDate(iso);
  if (!date) return "—";
  if (timeZone === "UTC") return `${utcDay(date, "short")}, ${utcClock(date, seconds)}${zone ? " UTC" : ""}`;
  return dateFormatter({
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    ...(seconds ? { second: "2-digit" } : {}),
    timeZone,
    ...(zone ? { timeZoneName: "short" } : {}),
  }).format(date);
}

/** "3:04:05 PM" in the given time zone. */
export function formatTime(iso: string, timeZone: string): string {
  const date = parseDate(iso);
  if (date && timeZone === "UTC") return utcClock(date, true);
  return date ? dateFormatter({ hour: "numeric", minute: "2-digit", second: "2-digit", timeZone }).format(date) : "—";
}

/** A stored phone for display: "(302) 555-0199" when it has ten digits, otherwise as stored; null when there is none. */
export function displayPhone(phone: string | null | undefined): string | null {
  if (!phone) return null;
  const digits = digitsOnly(phone);
  return digits.length === 10 ? formatPhone(digits) : phone;
}

/** A loan term: "6 months", "60 months (5 years)", "18 months (1.5 years)". */
export function termLabel(months: number): string {
  if (months < 12) return `${months} months`;
  const years = months / 12;
  return `${months} months (${years} ${years === 1 ? "year" : "years"})`;
}

/** The reference an applicant sees for an application: the first 8 characters of its id (as on the dashboard card). */
export function applicationReference(id: string): string {
  return id.slice(0, 8);
}

/** The first 8 characters of an id, with an ellipsis: "1a2b3c4d…". */
export function shortId(id: string): string {
  return id.length > 8 ? `${id.slice(0, 8)}…` : id;
}
