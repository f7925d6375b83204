/**
 * How Download My Data writes what it must not give in full: the SSN and bank numbers keep their last
 * 4 digits (the rule, for submitted applications and saved drafts alike), and files get the
 * extension of their checked type.
 */

/** "***-**-1234": the applicant's own SSN, last 4 kept. */
export function maskSsn(ssn: string | null): string | null {
  if (!ssn) return null;
  const digits = ssn.replace(/\D/g, "");
  return digits.length >= 4 ? `***-**-${digits.slice(-4)}` : "***-**-****";
}

/** A bank number with all but the last 4 digits replaced by '*'. */
export function maskLast4(value: string | null): string | null {
  if (!value) return null;
  const digits = value.replace(/\D/g, "");
  if (digits.length <= 4) return "*".repeat(digits.length);
  return `${"*".repeat(digits.length - 4)}${digits.slice(-4)}`;
}

/** "****4321": an account number (or its stored last 4), which says nothing of its length. */
export function maskAccountNumber(value: string | null): string | null {
  if (!value) return null;
  return `****${value.replace(/\D/g, "").slice(-4)}`;
}

export const EXTENSION: Record<string, string> = { "application/pdf": "pdf", "image/jpeg": "jpg", "image/png": "png" };
