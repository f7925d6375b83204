import { and, eq, isNull, sql } from "drizzle-orm";
import { QueryBuilder } from "drizzle-orm/pg-core";
import type { UserRole } from "~/domain/enums";
import { getDb, type Database, type DbOrTx } from "~/server/platform/db/client.server";
import { userRoles } from "~/server/platform/db/schema.server";

/**
 * Who holds a staff role, for the modules that ask (sign-in, the session lookups, the security page).
 * A person holds at most one role row; a deactivated member keeps theirs, marked.
 */

/**
 * The role rows as a subquery, for a query in another module that must join a person to their role in
 * the same statement (every page's session lookup and the stream heartbeats run one round trip). Joined
 * with `.leftJoin(roles, eq(roles.userId, …))`; PostgreSQL pulls the plain subquery up into the join,
 * so the plan is the same as joining user_roles itself.
 */
export function staffRoleRows() {
  return new QueryBuilder()
    .select({ userId: userRoles.userId, role: userRoles.role, deactivatedAt: userRoles.deactivatedAt })
    .from(userRoles)
    .as("staff_role");
}

/** Whether the account holds an active staff role (sign-in asks, to send staff to /admin). */
export async function hasActiveStaffRole(userId: string, db: DbOrTx = getDb()): Promise<boolean> {
  const [row] = await db
    .select({ one: sql`1` })
    .from(userRoles)
    .where(and(eq(userRoles.userId, userId), isNull(userRoles.deactivatedAt)))
    .limit(1);
  return Boolean(row);
}

/** The account's staff role, deactivated or not; null for an applicant. */
export async function staffRoleOf(userId: string, db: DbOrTx = getDb()): Promise<UserRole | null> {
  const [row] = await db.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, userId)).limit(1);
  return row?.role ?? null;
}

/** Grants a staff role; an account that already holds one keeps it. Answers whether the role was granted now. */
export async function grantStaffRole(userId: string, role: UserRole, db: DbOrTx = getDb()): Promise<boolean> {
  const inserted = await db.insert(userRoles).values({ userId, role }).onConflictDoNothing().returning({ id: userRoles.id });
  return inserted.length > 0;
}

/** How many admin roles exist, deactivated ones included (start-up creates the first admin when none). */
export async function countAdmins(database: Database): Promise<number> {
  const rows = await database.db.select({ id: userRoles.id }).from(userRoles).where(eq(userRoles.role, "admin"));
  return rows.length;
}
