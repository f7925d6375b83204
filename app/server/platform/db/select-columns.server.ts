import { getTableColumns, type Table } from "drizzle-orm";

/**
 * Named columns of one table as a select() shape, each under its own name: columnsOf(t, ["id", "name"])
 * is `{ id: t.id, name: t.name }`. A read names the columns it needs (and so leaves sensitive ones
 * unread) without writing each name twice; a column read under another name is still written out.
 */
export function columnsOf<T extends Table, K extends keyof T["_"]["columns"] & string>(table: T, names: readonly K[]): Pick<T["_"]["columns"], K> {
  const columns = getTableColumns(table);
  return Object.fromEntries(names.map((name) => [name, columns[name]])) as Pick<T["_"]["columns"], K>;
}
