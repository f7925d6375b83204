/**
 * Which names a borrower may type to sign their loan agreement. Pure, no I/O, safe in the browser.
 *
 * A typed signature is accepted when it is one of the borrower's own names: their full name as they
 * gave it at sign-up (the account's name, "Maria Elena Gonzalez"), or as the application gives it,
 * first and last name with or without the middle initial ("Maria Gonzalez", "Maria E. Gonzalez").
 * Accepting only the application's first and last name refused people who signed with the full name
 * they had always used with us.
 *
 * Names are compared as people write them: case, spacing and punctuation do not matter
 * ("maria elena gonzalez" = "Maria Elena Gonzalez", "Jane Doe Smith" = "Jane Doe-Smith",
 * "Ann O'Neil" = "ann oneil"); letters and digits in any script must match one for one. The signature
 * itself is kept and printed as typed.
 */

export type SignerNames = {
  /** The name given at sign-up (the account's name); may be empty. */
  accountName?: string | null;
  firstName: string;
  middleInitial?: string | null;
  lastName: string;
};

/** A name reduced to what the comparison looks at: its letters and digits, lower case. */
export function comparableName(name: string): string {
  return name
    .normalize("NFKC")
    .toLocaleLowerCase("en-US")
    .replace(/[^\p{L}\p{N}\p{M}]/gu, "");
}

/** The borrower's names in the order they are offered: the sign-up name first, then the application's. */
export function acceptedSignerNames(names: SignerNames): string[] {
  const initial = names.middleInitial?.trim();
  const candidates = [
    names.accountName?.trim() ?? "",
    `${names.firstName} ${names.lastName}`,
    initial ? `${names.firstName} ${initial}. ${names.lastName}` : "",
  ].map((n) => n.replace(/\s+/g, " ").trim());
  const seen = new Set<string>();
  return candidates.filter((n) => {
    const key = comparableName(n);
    if (!key || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The name the signing page asks the borrower to type: the first accepted one. */
export function nameToType(names: SignerNames): string {
  return acceptedSignerNames(names)[0] ?? `${names.firstName} ${names.lastName}`;
}

/** Whether a typed signature is one of the borrower's names (see the rule above). */
export function typedNameMatches(typed: string, names: SignerNames): boolean {
  const given = comparableName(typed);
  if (!given) return false;
  return acceptedSignerNames(names).some((name) => comparableName(name) === given);
}

/** A typed signature as it is kept and printed: as typed, with runs of spaces made one. */
export function typedSignatureAsGiven(typed: string): string {
  return typed.replace(/\s+/g, " ").trim();
}
