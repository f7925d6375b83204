import { eq, notExists, sql, type SQL } from "drizzle-orm";
import { QueryBuilder, type AnyPgColumn } from "drizzle-orm/pg-core";
import { userRoles } from "~/server/platform/db/schema.server";

/**
 * Clients are applicants: a person with a staff role (active or not) is neither listed nor shown as a
 * client. A condition on another module's id column, so the list stays one statement read off its index.
 */
export function holdsNoStaffRole(userId: AnyPgColumn | SQL): SQL {
  return notExists(new QueryBuilder().select({ one: sql`1` }).from(userRoles).where(eq(userRoles.userId, userId)));
}
