/**
 * A schema's issues as messages per form field: the one mapping every form and action uses, in the
 * browser (to show errors before posting) and on the server (to answer a refused post).
 */

/** Messages per field name; a field without problems is absent or undefined. */
export type FieldErrors = Record<string, string[] | undefined>;

/** What this needs from a Zod issue (structural, so it works with any Zod error or issue list). */
export type IssueLike = { readonly path: readonly PropertyKey[]; readonly message: string };

export type IssuesToFieldErrorsOptions = {
  /** Keep only these fields (issues about anything else are dropped). Default: keep all. */
  fields?: readonly string[];
  /** Key for an issue without a path (a refinement on the whole object). Default "form". */
  rootKey?: string;
};

/**
 * Each issue's message under the first segment of its path, in the schema's order, without repeating a
 * message for the same field.
 */
export function issuesToFieldErrors(
  error: { readonly issues: readonly IssueLike[] },
  { fields, rootKey = "form" }: IssuesToFieldErrorsOptions = {},
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const field = issue.path.length ? String(issue.path[0]) : rootKey;
    if (fields && !fields.includes(field)) continue;
    const list = (out[field] ??= []);
    if (!list.includes(issue.message)) list.push(issue.message);
  }
  return out;
}

/** The first field (in `order`) that has a message, with that message; else null. */
export function firstFieldError(errors: FieldErrors, order: readonly string[]): { field: string; message: string } | null {
  for (const field of order) {
    const message = errors[field]?.[0];
    if (message) return { field, message };
  }
  return null;
}

/** Whether any field has a message. */
export function hasFieldErrors(errors: FieldErrors): boolean {
  return Object.values(errors).some((list) => Boolean(list?.length));
}
