import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

/**
 * The trace number an ACH file gave each row, as one SQL expression for the claim's SET (CASE id WHEN
 * … THEN … END; null for a row without one): the claim and the trace are one write per row.
 */
export function traceNumberOf(idColumn: AnyPgColumn, traces: ReadonlyMap<string, string>): SQL {
  if (traces.size === 0) return sql`null`;
  const cases = sql.join(
    [...traces].map(([id, trace]) => sql`when ${id}::uuid then ${trace}`),
    sql` `,
  );
  return sql`case ${idColumn} ${cases} end`;
}
