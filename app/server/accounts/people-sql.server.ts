import { sql, type SQL } from "drizzle-orm";
import { user as users } from "~/server/platform/db/schema.server";

/**
 * SQL fragments about people for another module's statement that must stay one statement (a report
 * that orders by a name). A page of display data uses a batched read instead.
 */

/** The account's name for the user id `id` (a column or expression), as a scalar subquery by the primary key; null when deleted. */
export function accountNameOf(id: SQL): SQL<string | null> {
  return sql`(select ${users.name} from ${users} where ${users.id} = ${id})`;
}
