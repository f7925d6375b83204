import { and, inArray, isNull, sql, type SQL } from "drizzle-orm";
import type { UserRole } from "~/domain/enums";
import type { DbOrTx } from "~/server/platform/db/client.server";
import { userRoles } from "~/server/platform/db/schema.server";

/** Active staff (not deactivated) holding one of these roles. */
const activeIn = (roles: readonly UserRole[]) => and(inArray(userRoles.role, [...roles]), isNull(userRoles.deactivatedAt));

/** SQL for the ids of the active staff holding one of these roles, for a statement that lists them with their names. */
export function activeStaffIdsSql(roles: readonly UserRole[]): SQL {
  return sql`select ${userRoles.userId} from ${userRoles} where ${activeIn(roles)}`;
}

/**
 * Whether this person is active staff in one of these roles, their role row held FOR SHARE until the
 * transaction ends: a deactivation or role change waits for the caller's write (and vice versa).
 */
export async function holdActiveStaff(tx: DbOrTx, userId: string, roles: readonly UserRole[]): Promise<boolean> {
  const rows = await tx
    .select({ userId: userRoles.userId })
    .from(userRoles)
    .where(and(sql`${userRoles.userId} = ${userId}`, activeIn(roles)))
    .for("share");
  return rows.length > 0;
}
