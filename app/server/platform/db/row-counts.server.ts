import { and, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import { rowCounts } from "~/server/platform/db/schema.server";
import type { DbOrTx } from "~/server/platform/mail/outbox.server";

/**
 * Counts the admin lists show, read from row_counts (kept by triggers in drizzle/0012, decision 0044)
 * instead of counting a table that grows with the business.
 */

/** The counts kept under `keys` (a key no row has ever had counts 0). */
export async function keptCounts<K extends string>(db: DbOrTx, keys: readonly K[]): Promise<Record<K, number>> {
  const rows = await db.select().from(rowCounts).where(inArray(rowCounts.key, [...keys]));
  const counts = Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
  for (const row of rows) counts[row.key as K] = Number(row.rows);
  return counts;
}

/** The sum of the counts whose keys fall in [from, to): one row per key in the range. */
export async function keptCountBetween(db: DbOrTx, from: string, to: string): Promise<number> {
  const [row] = await db
    .select({ value: sql<string | null>`sum(${rowCounts.rows})` })
    .from(rowCounts)
    .where(and(gte(rowCounts.key, from), lt(rowCounts.key, to)));
  return Number(row?.value ?? 0);
}

/**
 * Several sums of counts in one read: for each range [from, to) the sum of the counts whose keys fall
 * in it (0 when none). One scan of the keys from the lowest `from` to the highest `to`.
 */
export async function keptCountsBetween(db: DbOrTx, ranges: readonly { from: string; to: string }[]): Promise<number[]> {
  if (ranges.length === 0) return [];
  const low = ranges.reduce((m, r) => (r.from < m ? r.from : m), ranges[0]!.from);
  const high = ranges.reduce((m, r) => (r.to > m ? r.to : m), ranges[0]!.to);
  const sums = ranges.map((r, i) => sql`coalesce(sum(${rowCounts.rows}) filter (where ${rowCounts.key} >= ${r.from} and ${rowCounts.key} < ${r.to}), 0)::bigint as ${sql.identifier(`s${i}`)}`);
  const result = (await db.execute(sql`select ${sql.join(sums, sql`, `)} from ${rowCounts} where ${rowCounts.key} >= ${low} and ${rowCounts.key} < ${high}`)) as unknown as {
    rows: Record<string, string | number | null>[];
  };
  const row = result.rows[0] ?? {};
  return ranges.map((_, i) => Number(row[`s${i}`] ?? 0));
}

/** SQL for the count kept under `key` (0 when none), for a statement that combines it with others in one read. */
export function keptCountSql(key: string): SQL {
  return sql`coalesce((select ${rowCounts.rows} from ${rowCounts} where ${rowCounts.key} = ${key}), 0)`;
}
