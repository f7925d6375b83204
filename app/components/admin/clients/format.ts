import { DOCUMENT_FIELDS } from "~/domain/validation/application-constants";
import { formatSsn } from "~/domain/formats";
import { REQUEST_ITEM_KIND_LABELS, titleCase } from "~/domain/labels";

/** Display helpers for the admin client and document views. Pure, safe in the browser. */

const BULLET = "\u2022";

/** Account number masked except its last 4 characters: "••••••6789" (docs/requirements.md §6, §10). */
export function maskAccountNumber(last4: string): string {
  return `${BULLET.repeat(6)}${last4.slice(-4)}`;
}

/** Routing number masked except its last 2 characters: "•••••••21". */
export function maskRoutingNumber(last2: string): string {
  return `${BULLET.repeat(7)}${last2.slice(-2)}`;
}

/** An SSN that is not revealed. */
export const MASKED_SSN = `${BULLET.repeat(3)}-${BULLET.repeat(2)}-${BULLET.repeat(4)}`;

/** A revealed SSN: 9 digits as XXX-XX-XXXX, anything else as stored. */
export function displaySsn(value: string): string {
  return /^\d{9}$/.test(value) ? formatSsn(value) : value;
}

const DOCUMENT_LABELS: Record<string, string> = {
  ...Object.fromEntries(DOCUMENT_FIELDS.map((d) => [d.type, d.label])),
  signature: "Signature",
  ...REQUEST_ITEM_KIND_LABELS,
};

/** "Bank Statement (Month 1)" for bank_statement_1; unknown types are tidied. */
export function documentTypeLabel(type: string): string {
  return DOCUMENT_LABELS[type] ?? titleCase(type);
}

/** One line of address from its parts, or null when there is none. */
export function formatAddress(parts: { address: string | null; city: string | null; state: string | null; zipCode: string | null }): string | null {
  const cityLine = [parts.city, [parts.state, parts.zipCode].filter(Boolean).join(" ")].filter(Boolean).join(", ");
  const line = [parts.address, cityLine].filter(Boolean).join(", ");
  return line || null;
}

/** The search string of a /admin/clients link, keeping only what is set. */
export function clientsSearch(params: { q?: string; page?: number; client?: string | null }): string {
  const search = new URLSearchParams();
  if (params.q) search.set("q", params.q);
  if (params.page && params.page > 1) search.set("page", String(params.page));
  if (params.client) search.set("client", params.client);
  const text = search.toString();
  return text ? `?${text}` : "";
}
