import { z } from "zod";

/**
 * Keyset paging of the admin lists (decision 0050), the part the browser shares: which page
 * a URL asks for, and the URL of a page. A deep page is reached by Next/Previous links that carry the
 * boundary row's sort key in an opaque token (`?after=` / `?before=`), and Last (`?last=1`) reads the
 * list backwards from its end, so no page costs more index entries than a page. `?page=N` still works
 * for old bookmarks, but no link the pages draw carries a deep page number.
 */

/** A token is a few sort-key values in base64url; anything longer is not one of ours. */
export const MAX_CURSOR_CHARS = 512;

/**
 * What a list's URL asks for, before the server has decoded the token against the list's keys (a
 * caller without a URL passes `{ page: 1 }`).
 */
export type PageRequest = {
  page?: number;
  after?: string | null;
  before?: string | null;
  last?: boolean;
};

const token = z
  .string()
  .max(MAX_CURSOR_CHARS)
  .regex(/^[A-Za-z0-9_-]+$/);

/** Lenient, like every list's parameters: a bad page number is 1, a malformed token is ignored (the first page). */
export const pageRequestSchema = z.object({
  page: z
    .string()
    .regex(/^\d{1,6}$/)
    .transform(Number)
    .pipe(z.number().int().min(1))
    .catch(1),
  after: token.nullable().catch(null),
  before: token.nullable().catch(null),
  last: z.literal("1").nullable().catch(null),
});

/**
 * The names a list's page travels under in its URL. A list that shares its page with others prefixes
 * them (the Reg B list on /admin/reports: `regbAfter`, ...), and one paged by tokens alone has no page
 * number (`page: null`), so no URL can ask it for an OFFSET.
 */
export type PageParamNames = { page: string | null; after: string; before: string; last: string };

export const PAGE_PARAMS: PageParamNames = { page: "page", after: "after", before: "before", last: "last" };

/** The page part of a list's URL: only what was asked for (one of after, before, last), so plain URLs parse as before. */
export function parsePageRequest(search: URLSearchParams, names: PageParamNames = PAGE_PARAMS): PageRequest {
  const parsed = pageRequestSchema.parse({
    page: (names.page === null ? null : search.get(names.page)) ?? "1",
    after: search.get(names.after),
    before: search.get(names.before),
    last: search.get(names.last),
  });
  if (parsed.after) return { page: parsed.page, after: parsed.after };
  if (parsed.before) return { page: parsed.page, before: parsed.before };
  if (parsed.last) return { page: parsed.page, last: true };
  return { page: parsed.page };
}

/** Where a pagination link goes: a page by number (the first, or a numbered list), past a token, or the end. */
export type PageTarget =
  { page: number } | { after: string } | { before: string } | { last: true };

/** Tokens of the rows either side of the page shown (null: nothing that way). Absent on numbered lists. */
export type PageCursors = { prev: string | null; next: string | null };

/**
 * The page's part of a list URL, set on `search` (page 1 is left out). Whatever page of this list
 * `search` already named is dropped first, so a link built from the current URL names one page.
 */
export function setPageTarget(
  search: URLSearchParams,
  target: PageTarget,
  names: PageParamNames = PAGE_PARAMS,
): URLSearchParams {
  for (const name of [names.page, names.after, names.before, names.last]) if (name !== null) search.delete(name);
  if ("after" in target) search.set(names.after, target.after);
  else if ("before" in target) search.set(names.before, target.before);
  else if ("last" in target) search.set(names.last, "1");
  else if (target.page > 1 && names.page !== null) search.set(names.page, String(target.page));
  return search;
}
