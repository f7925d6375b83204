import { digitsOnly } from "~/domain/formats";

/** How the wizard's review step shows identity and bank numbers (masked) and file sizes. */

/** ***-**-1234 (only the last four digits shown). */
export function maskSsn(ssn: string): string {
  const digits = digitsOnly(ssn);
  return digits.length >= 4 ? `***-**-${digits.slice(-4)}` : "";
}

/** ••••1234 */
export function maskAccount(account: string): string {
  const digits = digitsOnly(account);
  return digits ? `••••${digits.slice(-4)}` : "";
}

/** •••••••21 (nine characters, the last two digits shown). */
export function maskRouting(routing: string): string {
  const digits = digitsOnly(routing);
  return digits ? `${"•".repeat(Math.max(0, digits.length - 2))}${digits.slice(-2)}` : "";
}

/** "12.3 KB": the spec shows uploaded files' sizes in KB. */
export function sizeInKb(bytes: number): string {
  const kb = Math.max(bytes, 0) / 1024;
  return `${kb.toLocaleString("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 })} KB`;
}

