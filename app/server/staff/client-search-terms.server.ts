/**
 * What a staff search box entry on /admin/clients asks for (docs/decisions/0043). One box,
 * classified here without touching the database; an entry that fits several kinds (e.g. "1120": four
 * digits and a hex application-id prefix) searches each of them and the results are united.
 *
 * Every kind becomes a range of one btree, read in index order: never a LIKE, so % and _ are
 * ordinary characters and no search reads the whole table.
 */

export type ClientSearchTerms = {
  /** Four digits: the last 4 of an SSN or of a bank account number (matched through the blind index). */
  last4: string | null;
  /** An application id prefix as the inclusive uuid range it covers. */
  applicationId: { min: string; max: string } | null;
  /** A phone number as digits: all 10 (equality), or 7 to 9 (the number starts with them). */
  phone: { digits: string; exact: boolean } | null;
  /** An e-mail address prefix ("jane.d@ex"), or the domain's ("@example.com" → "example.com"). */
  email: { prefix: string; part: "address" | "domain" } | null;
  /** A name prefix (whole name; for one word also the last name and the e-mail address); lower-cased by the database. */
  name: string | null;
};

export type ClientSearchKind = "last4" | "applicationId" | "phone" | "email" | "name";

const HEX_ID = /^[0-9a-f][0-9a-f-]*$/i;
const PHONE = /^\+?[\d\s().-]+$/;

/** The uuid range of ids starting with `hex` (1–32 hex digits). */
export function uuidRange(hex: string): { min: string; max: string } {
  const format = (h: string) => `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  const h = hex.toLowerCase();
  return { min: format(h.padEnd(32, "0")), max: format(h.padEnd(32, "f")) };
}

export function classifySearch(raw: string): ClientSearchTerms {
  const q = raw.normalize("NFC").trim().replace(/\s+/g, " ");
  const terms: ClientSearchTerms = { last4: null, applicationId: null, phone: null, email: null, name: null };
  if (!q) return terms;

  if (/^\d{4}$/.test(q)) terms.last4 = q;

  const hex = q.replace(/-/g, "");
  if (HEX_ID.test(q) && hex.length >= 4 && hex.length <= 32 && /^[0-9a-f]+$/i.test(hex)) terms.applicationId = uuidRange(hex);

  if (PHONE.test(q)) {
    let digits = q.replace(/\D/g, "");
    if (digits.length === 11 && digits.startsWith("1")) digits = digits.slice(1);
    if (digits.length >= 7 && digits.length <= 10) terms.phone = { digits, exact: digits.length === 10 };
  }

  if (q.includes("@")) {
    const domain = q.startsWith("@") ? q.slice(1) : null;
    if (domain !== null) {
      if (domain && !domain.includes("@")) terms.email = { prefix: domain, part: "domain" };
    } else terms.email = { prefix: q, part: "address" };
  } else if (/\p{L}/u.test(q) || !(terms.last4 || terms.applicationId || terms.phone)) {
    // Anything with a letter may be a name; so is what fits no other kind (it then simply finds no one).
    terms.name = q;
  }
  return terms;
}

/** The kinds a search used, in a fixed order (for the audit log and the page). */
export function searchKinds(terms: ClientSearchTerms): ClientSearchKind[] {
  return (["last4", "applicationId", "phone", "email", "name"] as const).filter((k) => terms[k] !== null);
}
