import { count, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import { z } from "zod";
import { hasNoControlCharacters } from "~/domain/validation/text-rules";
import { MAX_CURSOR_CHARS, type PageCursors, type PageRequest } from "~/domain/paging";
import type { DbOrTx } from "~/server/platform/mail/outbox.server";

/**
 * The paging every admin list shares: how many rows match, and which page of them to read (a page
 * number past the end shows the last page, so a list that shrank never answers an empty page).
 */

export async function countRows(db: DbOrTx, table: PgTable, where?: SQL): Promise<number> {
  const [row] = await db.select({ value: count() }).from(table).where(where);
  return row?.value ?? 0;
}

export type PageWindow = { page: number; pageCount: number; pageSize: number; limit: number; offset: number };

export function pageWindow(total: number, requested: number, pageSize: number): PageWindow {
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(Math.max(1, Math.floor(requested)), pageCount);
  return { page, pageCount, pageSize, limit: pageSize, offset: (page - 1) * pageSize };
}

/** Stored instants as ISO 8601 strings: what every list hands to the page. */
export function withIsoCreatedAt<Row extends { createdAt: Date }>(rows: Row[]): (Omit<Row, "createdAt"> & { createdAt: string })[] {
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
}

// ---------------------------------------------------------------------------------------------
// Keyset paging (decision 0050): every admin list's pages by the boundary row's sort key.
// ---------------------------------------------------------------------------------------------

/** How a key's value travels in a token and is cast back in SQL (the text PostgreSQL prints for it). */
export type KeyType = "timestamptz" | "date" | "uuid" | "text";

/**
 * One column of a list's order. NULLs sort as PostgreSQL's default does (after every value ascending,
 * before every value descending), which is what the lists' indexes hold.
 */
export type KeyColumn = { column: AnyPgColumn; order: "asc" | "desc"; type: KeyType; nullable?: boolean };

/**
 * A list in keyset terms. `scope` names the list and its filter (a tab's token is refused by another
 * tab); `keys` end with a unique column, so the order is total and pages never overlap.
 */
export type KeysetList = { scope: string; table: PgTable; id: AnyPgColumn; keys: KeyColumn[]; where?: SQL };

/** What a cursor carries: the list it came from, the page number it leads to (shown only) and the row's key. */
export type Cursor = { scope: string; page: number; key: (string | null)[] };

const cursorSchema = z
  .object({
    s: z.string().max(120),
    p: z.number().int().min(1).max(100_000_000),
    k: z.array(z.string().max(200).nullable()).min(1).max(8),
  })
  .strict();

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify({ s: cursor.scope, p: cursor.page, k: cursor.key }), "utf8").toString("base64url");
}

/** A date PostgreSQL accepts: real calendar days only (a cast of 2026-02-30 would be a 500, not a first page). */
function isCalendarDate(year: number, month: number, day: number): boolean {
  const d = new Date(Date.UTC(year, month - 1, day));
  return year >= 1900 && d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// What timestamptz::text prints: "2026-11-27 18:35:06.123456+00" (or +05:30, or +00:53:28 far back).
const TIMESTAMPTZ = /^(\d{4})-(\d{2})-(\d{2}) ([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(\.\d{1,6})?[+-](0\d|1[0-5])(:[0-5]\d){0,2}$/;
const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function validKeyValue(value: string, type: KeyType): boolean {
  switch (type) {
    case "date":
    case "timestamptz": {
      const m = (type === "date" ? DATE : TIMESTAMPTZ).exec(value);
      return m !== null && isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]));
    }
    case "uuid":
      return UUID_TEXT.test(value);
    case "text":
      return hasNoControlCharacters(value);
  }
}

/**
 * A token back to a cursor of `list`, or null for anything else (malformed, forged with values the
 * columns cannot hold, another list's or tab's): the caller shows the first page, never a 500.
 */
export function decodeCursor(token: string | null | undefined, list: Pick<KeysetList, "scope" | "keys">): Cursor | null {
  if (!token || token.length > MAX_CURSOR_CHARS || !/^[A-Za-z0-9_-]+$/.test(token)) return null;
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  const parsed = cursorSchema.safeParse(json);
  if (!parsed.success) return null;
  const { s, p, k } = parsed.data;
  if (s !== list.scope || k.length !== list.keys.length) return null;
  for (const [i, value] of k.entries()) {
    const key = list.keys[i]!;
    if (value === null ? !key.nullable : !validKeyValue(value, key.type)) return null;
  }
  return { scope: s, page: p, key: k };
}

const cast = (value: string, type: KeyType) => sql`${value}::${sql.raw(type)}`;

/** The list's order, or its reverse (NULLs keep PostgreSQL's default place either way: the index read backwards). */
function orderBy(keys: KeyColumn[], backwards: boolean, ref: (i: number) => SQL): SQL {
  return sql.join(
    keys.map((key, i) => sql`${ref(i)} ${sql.raw((key.order === "asc") !== backwards ? "asc" : "desc")}`),
    sql`, `,
  );
}

/** Rows strictly beyond `value` in the column's direction of travel, as index ranges (a nullable column's NULLs are a range of their own). */
function beyond(key: KeyColumn, value: string | null, ascending: boolean): SQL[] {
  const col = key.column;
  if (ascending) {
    if (value === null) return [];
    return key.nullable ? [sql`${col} > ${cast(value, key.type)}`, sql`${col} is null`] : [sql`${col} > ${cast(value, key.type)}`];
  }
  if (value === null) return [sql`${col} is not null`];
  return [sql`${col} < ${cast(value, key.type)}`];
}

function equals(key: KeyColumn, value: string | null): SQL {
  return value === null ? sql`${key.column} is null` : sql`${key.column} = ${cast(value, key.type)}`;
}

/**
 * The conditions, each one index range, whose union is "after `from`": with every column in one
 * direction and none nullable, one row comparison; otherwise one range per column (the columns before
 * it equal, it beyond), each read in order and limited, so a page reads at most ranges × (page + 1) entries.
 */
function rangesAfter(keys: KeyColumn[], from: (string | null)[], backwards: boolean): SQL[] {
  const uniform = keys.every((k) => k.order === keys[0]!.order && !k.nullable);
  if (uniform) {
    const ascending = (keys[0]!.order === "asc") !== backwards;
    const cols = sql.join(
      keys.map((k) => k.column),
      sql`, `,
    );
    const values = sql.join(
      keys.map((k, i) => cast(from[i]!, k.type)),
      sql`, `,
    );
    return [sql`(${cols}) ${sql.raw(ascending ? ">" : "<")} (${values})`];
  }
  const ranges: SQL[] = [];
  for (let i = keys.length - 1; i >= 0; i--) {
    const ascending = (keys[i]!.order === "asc") !== backwards;
    const prefix = keys.slice(0, i).map((k, j) => equals(k, from[j] ?? null));
    for (const range of beyond(keys[i]!, from[i] ?? null, ascending)) ranges.push(sql.join([...prefix, range], sql` and `));
  }
  return ranges;
}

type KeyedRow = { id: string; key: (string | null)[] };

/**
 * Up to `limit` ids of `list` in its order (or backwards), after the row keyed `from` (or from the
 * start, skipping `offset`), with their keys as text (PostgreSQL's, to the microsecond: a JavaScript
 * Date would round and lose rows tied within a millisecond).
 */
async function readKeyed(
  db: DbOrTx,
  list: KeysetList,
  opts: { from: (string | null)[] | null; backwards: boolean; limit: number; offset?: number },
): Promise<KeyedRow[]> {
  const { keys } = list;
  const texts = sql.join(
    keys.map((k, i) => sql`${k.column}::text as ${sql.raw(`k${i}`)}`),
    sql`, `,
  );
  const own = orderBy(keys, opts.backwards, (i) => sql`${keys[i]!.column}`);
  const where = (range?: SQL) => {
    const parts = [list.where, range].filter((p): p is SQL => p !== undefined);
    return parts.length ? sql`where ${sql.join(parts, sql` and `)}` : sql``;
  };
  let query: SQL;
  if (opts.from === null) {
    query = sql`select ${list.id}::text as id, ${texts} from ${list.table} ${where()} order by ${own} limit ${opts.limit} offset ${opts.offset ?? 0}`;
  } else {
    const ranges = rangesAfter(keys, opts.from, opts.backwards);
    if (ranges.length === 0) return [];
    const ordered = sql.join(
      keys.map((k, i) => sql`${k.column} as ${sql.raw(`o${i}`)}`),
      sql`, `,
    );
    const branches = ranges.map((range) => sql`(select ${list.id}::text as id, ${texts}, ${ordered} from ${list.table} ${where(range)} order by ${own} limit ${opts.limit})`);
    const outer = orderBy(keys, opts.backwards, (i) => sql.raw(`o${i}`));
    const keyNames = sql.raw(keys.map((_, i) => `k${i}`).join(", "));
    query = sql`select id, ${keyNames} from (${sql.join(branches, sql` union all `)}) as ranges order by ${outer} limit ${opts.limit}`;
  }
  const result = (await db.execute(query)) as unknown as { rows: Record<string, string | null>[] };
  return result.rows.map((r) => ({ id: r.id as string, key: keys.map((_, i) => r[`k${i}`] ?? null) }));
}

/** One page of a keyset list: its ids in the list's order, the page number shown and the tokens either side. */
export type KeysetPage = { ids: string[]; page: number; pageCount: number; cursors: PageCursors };

/**
 * The page `request` asks for: past a token (Next), before one (Previous), the last (read backwards
 * from the end, as many rows as the kept count leaves there, so Previous from it lands on the same
 * pages Next does), or a page by number (old bookmarks: OFFSET, read from the index alone; a number at
 * or past the end is the last page, read backwards). A token that is not this list's is ignored (the
 * first page); one that leads nowhere any more (its rows gone) shows the last or the first page.
 * `total` is the list's kept count.
 */
export async function keysetPage(db: DbOrTx, list: KeysetList, request: PageRequest, total: number, pageSize: number): Promise<KeysetPage> {
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const after = decodeCursor(request.after, list);
  const before = after ? null : decodeCursor(request.before, list);
  let rows: KeyedRow[] = [];
  let page = 1;
  let hasPrev = false;
  let hasNext = false;
  let settled = false;

  if (after) {
    rows = await readKeyed(db, list, { from: after.key, backwards: false, limit: pageSize + 1 });
    if (rows.length > 0) {
      hasNext = rows.length > pageSize;
      rows = rows.slice(0, pageSize);
      [hasPrev, page, settled] = [true, after.page, true];
    }
  } else if (before) {
    rows = await readKeyed(db, list, { from: before.key, backwards: true, limit: pageSize + 1 });
    // Fewer than a page before the token: the first page (a full one) instead.
    if (rows.length >= pageSize) {
      hasPrev = rows.length > pageSize;
      rows = rows.slice(0, pageSize).reverse();
      [hasNext, page, settled] = [true, before.page, true];
    }
  }
  const numbered = !after && !before && !request.last;
  const wantsLast = request.last === true || (after !== null && !settled) || (numbered && (request.page ?? 1) >= pageCount && pageCount > 1);
  if (!settled && wantsLast && total > 0) {
    const lastSize = total - (pageCount - 1) * pageSize;
    rows = await readKeyed(db, list, { from: null, backwards: true, limit: lastSize + 1 });
    hasPrev = rows.length > lastSize;
    rows = rows.slice(0, lastSize).reverse();
    [page, settled] = [pageCount, true];
  }
  if (!settled) {
    // The first page, or a page by number (2 … pageCount − 1) from an old bookmark.
    const wanted = numbered ? Math.min(Math.max(1, request.page ?? 1), pageCount) : 1;
    rows = await readKeyed(db, list, { from: null, backwards: false, limit: pageSize + 1, offset: (wanted - 1) * pageSize });
    hasNext = rows.length > pageSize;
    rows = rows.slice(0, pageSize);
    [hasPrev, page] = [wanted > 1, wanted];
  }
  // The number shown: exact at either end; between them the count of Next/Previous clicks, kept inside the ends.
  if (!hasPrev) page = 1;
  else if (!hasNext) page = Math.max(pageCount, 2);
  else page = Math.min(Math.max(page, 2), Math.max(pageCount - 1, 2));
  const first = rows[0];
  const last = rows.at(-1);
  return {
    ids: rows.map((r) => r.id),
    page,
    pageCount: Math.max(pageCount, page),
    cursors: {
      prev: hasPrev && first ? encodeCursor({ scope: list.scope, page: page - 1, key: first.key }) : null,
      next: hasNext && last ? encodeCursor({ scope: list.scope, page: page + 1, key: last.key }) : null,
    },
  };
}
