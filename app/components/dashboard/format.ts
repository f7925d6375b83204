import { useSyncExternalStore } from "react";
import { isOneOf, LOAN_TYPES } from "~/domain/enums";
import { dateFormatter, formatUsd } from "~/domain/formats";
import { loans } from "~/content/loans";

/** Display helpers for the applicant dashboard. Pure, safe in the browser and on the server. */

/** Business constant (spec 001 §9): how long funding takes once everything is complete. */
export const FUNDING_BUSINESS_DAYS = "1-3";

/** "Personal Loans" for "personal"; an unknown type shows as written, tidied ("some_type" → "Some Type"). */
export function loanTypeLabel(loanType: string): string {
  if (isOneOf(LOAN_TYPES, loanType)) {
    const product = loans.find((loan) => loan.loanType === loanType);
    if (product) return product.title;
  }
  return titleCase(loanType);
}

function titleCase(value: string): string {
  return value
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join(" ");
}

/** "Under Review" for under_review; any status, known or not, gets a readable label. */
export function statusLabel(status: string): string {
  return titleCase(status) || "Unknown";
}

/** The first 8 characters of an id, with an ellipsis: "1a2b3c4d…". */
export function shortId(id: string): string {
  return id.length > 8 ? `${id.slice(0, 8)}…` : id;
}

/** Whole dollars when the amount has no cents ("$50,000"), otherwise with cents ("$1,025.83"). */
export function formatAmount(amount: number | string): string {
  const n = Number(amount);
  return formatUsd(amount, { cents: !Number.isInteger(n) });
}

/** "Nov 22, 2026" (en-US) in the given IANA time zone. */
export function formatDate(iso: string, timeZone: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "—";
  return dateFormatter({ year: "numeric", month: "short", day: "numeric", timeZone }).format(date);
}

const noSubscription = () => () => {};
const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
const serverTimeZone = () => "UTC";

/**
 * The time zone dates are shown in: UTC while rendering on the server and hydrating (so both
 * render the same text), then the browser's own zone.
 */
export function useDisplayTimeZone(): string {
  return useSyncExternalStore(noSubscription, browserTimeZone, serverTimeZone);
}
