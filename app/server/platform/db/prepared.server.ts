import type { Db } from "./client.server";

/**
 * Statements every signed-in request runs (who is asking, the header's unread badge) as named prepared
 * statements (decision 0058): Drizzle builds their SQL once per database instead of on every request,
 * and PostgreSQL parses them once per connection and, after its first five executions, reuses a generic
 * plan. Only point lookups by key belong here: a generic plan cannot see a parameter's value, which a
 * range or a status filter may need.
 */
const built = new WeakMap<Db, Map<string, unknown>>();

/** The prepared query `name` on `db`, built by `build` the first time it is asked for. */
export function preparedOn<Q>(db: Db, name: string, build: (db: Db) => Q): Q {
  let byName = built.get(db);
  if (!byName) {
    byName = new Map();
    built.set(db, byName);
  }
  let query = byName.get(name) as Q | undefined;
  if (query === undefined) {
    query = build(db);
    byName.set(name, query);
  }
  return query;
}
