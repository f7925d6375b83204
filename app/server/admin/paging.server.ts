import { count, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { DbOrTx } from "~/server/mail/outbox.server";

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
