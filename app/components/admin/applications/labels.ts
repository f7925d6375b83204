import { EMPLOYMENT_STATUSES, isOneOf } from "~/domain/enums";
import { dateFormatter } from "~/domain/formats";

/** Display labels for the admin review cards. Pure, safe in the browser and on the server. */

const EMPLOYMENT_LABELS: Record<(typeof EMPLOYMENT_STATUSES)[number], string> = {
  "full-time": "Full-time",
  "part-time": "Part-time",
  "self-employed": "Self-employed",
  retired: "Retired",
  unemployed: "Unemployed",
};

export function employmentLabel(status: string): string {
  return isOneOf(EMPLOYMENT_STATUSES, status) ? EMPLOYMENT_LABELS[status] : status;
}

/** "(302) 555-0199" for ten digits; anything else as stored. */
export function phoneLabel(phone: string | null | undefined): string {
  if (!phone) return "—";
  const digits = phone.replace(/\D/g, "");
  return digits.length === 10 ? `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}` : phone;
}

/** "Jan 5, 2026, 2:03 PM" in the given time zone. */
export function formatDateTime(iso: string, timeZone: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "—";
  return dateFormatter({ dateStyle: "medium", timeStyle: "short", timeZone }).format(date);
}
