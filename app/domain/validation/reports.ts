import { parsePageRequest, setPageTarget, type PageParamNames, type PageRequest, type PageTarget } from "~/domain/paging";
import { z } from "./zod";
import { isoDay, todayUtc } from "../dates";

/**
 * The date range of the Pipeline Reports page and of both CSV exports: one schema for the
 * form (From, To, Apply) and the server. Dates are calendar days 'yyyy-MM-dd' read in UTC; the range
 * covers From 00:00 UTC up to (not including) the day after To, so To is inclusive. Pure, no I/O.
 */

export const REPORT_RANGE_DEFAULT_DAYS = 90;
/** A longer range is refused: a report over decades says nothing, and an export that size is a dump. */
export const REPORT_RANGE_MAX_DAYS = 5 * 366;

export const REPORT_RANGE_MESSAGES = {
  fromInvalid: "From must be a date (yyyy-mm-dd).",
  toInvalid: "To must be a date (yyyy-mm-dd).",
  order: "To must be on or after From.",
  tooLong: "The date range can be at most 5 years.",
} as const;

const DAY_MS = 86_400_000;

/** A real calendar day in 'yyyy-MM-dd' (rejects 2026-02-30, which Date would roll over). */
function isCalendarDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && isoDay(date) === value;
}

export const reportRangeSchema = z
  .object({
    from: z.string().trim().refine(isCalendarDay, REPORT_RANGE_MESSAGES.fromInvalid),
    to: z.string().trim().refine(isCalendarDay, REPORT_RANGE_MESSAGES.toInvalid),
  })
  .superRefine((range, ctx) => {
    if (!isCalendarDay(range.from) || !isCalendarDay(range.to)) return;
    const days = (Date.parse(`${range.to}T00:00:00Z`) - Date.parse(`${range.from}T00:00:00Z`)) / DAY_MS;
    if (days < 0) ctx.addIssue({ code: "custom", path: ["to"], message: REPORT_RANGE_MESSAGES.order });
    else if (days + 1 > REPORT_RANGE_MAX_DAYS) ctx.addIssue({ code: "custom", path: ["to"], message: REPORT_RANGE_MESSAGES.tooLong });
  });

export type ReportRange = { from: string; to: string };

/** The last REPORT_RANGE_DEFAULT_DAYS days up to and including today (UTC). */
export function defaultReportRange(now: Date = new Date()): ReportRange {
  const to = todayUtc(now);
  const from = isoDay(new Date(Date.parse(`${to}T00:00:00Z`) - (REPORT_RANGE_DEFAULT_DAYS - 1) * DAY_MS));
  return { from, to };
}

export type ReportRangeRead = { ok: true; range: ReportRange } | { ok: false; range: ReportRange; message: string };

/**
 * Reads ?from=&to= : both absent gives the default range; one absent takes its default; anything else
 * must pass the schema. On refusal `range` echoes what was typed, so the form shows it with the message.
 */
export function readReportRange(params: URLSearchParams, now: Date = new Date()): ReportRangeRead {
  const fallback = defaultReportRange(now);
  const from = params.get("from")?.trim() || fallback.from;
  const to = params.get("to")?.trim() || fallback.to;
  const parsed = reportRangeSchema.safeParse({ from, to });
  if (parsed.success) return { ok: true, range: parsed.data };
  return { ok: false, range: { from: from.slice(0, 20), to: to.slice(0, 20) }, message: parsed.error.issues[0]?.message ?? REPORT_RANGE_MESSAGES.fromInvalid };
}

/** The instants a range covers: [start, end), end being midnight UTC after To. */
export function rangeInstants(range: ReportRange): { start: Date; end: Date } {
  return { start: new Date(`${range.from}T00:00:00Z`), end: new Date(Date.parse(`${range.to}T00:00:00Z`) + DAY_MS) };
}

/** The query string both the page and the export links use. */
export function rangeSearch(range: ReportRange): string {
  return new URLSearchParams({ from: range.from, to: range.to }).toString();
}

/**
 * The Reg B list's page on /admin/reports, under names of its own so they cannot collide with the
 * range's (from, to). Tokens only (First, Previous, Next, Last): no page number, so never an OFFSET.
 */
export const REG_B_PAGE_PARAMS: PageParamNames = { page: null, after: "regbAfter", before: "regbBefore", last: "regbLast" };

/** Which page of the Reg B list the URL asks for (lenient: a malformed token is the first page). */
export function readRegBPage(params: URLSearchParams): PageRequest {
  return parsePageRequest(params, REG_B_PAGE_PARAMS);
}

/**
 * A Reg B pager link: every other parameter of the current URL kept (the range, and anything else),
 * the list's page replaced; it lands on the section, which a full page load (no script) would not.
 */
export function regBPageHref(current: string | URLSearchParams, target: PageTarget): string {
  return `?${setPageTarget(new URLSearchParams(current), target, REG_B_PAGE_PARAMS).toString()}#report-reg-b`;
}
