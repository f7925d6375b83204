import { dateFormatter } from "~/domain/formats";

/** Date and time display for the admin pages ("Nov 22, 2026, 3:04:05 PM" in the given time zone). */

export function formatDateTime(iso: string, timeZone: string, { seconds = true }: { seconds?: boolean } = {}): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "—";
  return dateFormatter({
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    ...(seconds ? { second: "2-digit" } : {}),
    timeZone,
    timeZoneName: "short",
  }).format(date);
}

export function formatTime(iso: string, timeZone: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "—";
  return dateFormatter({ hour: "numeric", minute: "2-digit", second: "2-digit", timeZone }).format(date);
}
