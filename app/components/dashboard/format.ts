import { useSyncExternalStore } from "react";

/**
 * Display helpers for the applicant dashboard (labels and formats come from ~/domain/labels and
 * ~/domain/formats). Safe in the browser and on the server.
 */

export { FUNDING_BUSINESS_DAYS } from "~/domain/next-step";

export { applicationReference, shortId } from "~/domain/formats";

const noSubscription = () => () => {};
let knownTimeZone: string | undefined;
/**
 * The browser's zone. Asking Intl for it builds the first Intl formatter of the page, which loads ICU's
 * locale data: 35-85 ms of main thread on a phone, in the middle of hydration (Lighthouse's total
 * blocking time; decision 0052). A browser whose clock is never off UTC (no offset in January nor in
 * July; getTimezoneOffset needs no locale data) shows dates in UTC without asking. Zones always at
 * UTC+0 without summer time (Reykjavik, Abidjan) then label their times "UTC" rather than "GMT", the
 * same clock time.
 */
function browserTimeZone(): string {
  if (knownTimeZone === undefined) {
    const year = new Date().getFullYear();
    const alwaysUtc = new Date(year, 0, 1).getTimezoneOffset() === 0 && new Date(year, 6, 1).getTimezoneOffset() === 0;
    knownTimeZone = alwaysUtc ? "UTC" : Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  }
  return knownTimeZone;
}
const serverTimeZone = () => "UTC";

/**
 * The time zone dates are shown in: UTC while rendering on the server and hydrating (so both
 * render the same text), then the browser's own zone.
 */
export function useDisplayTimeZone(): string {
  return useSyncExternalStore(noSubscription, browserTimeZone, serverTimeZone);
}
