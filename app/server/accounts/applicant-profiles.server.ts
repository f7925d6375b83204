import { and, asc, eq } from "drizzle-orm";
import { getDb, type DbOrTx } from "~/server/platform/db/client.server";
import { profiles } from "~/server/platform/db/schema.server";
import { columnsOf } from "~/server/platform/db/select-columns.server";
import { holdsNoStaffRole } from "~/server/staff/index.server";

/**
 * The applicants' profiles the staff client view lists and shows (docs/decisions/0043). A profile whose
 * person holds a staff role is not a client. Only the profile's own columns: nothing sensitive.
 */

/** A page of applicant profiles in order of full name (ties by e-mail, then id, so pages never overlap), read off an index. */
export async function applicantProfilesPage(limit: number, offset: number, db: DbOrTx = getDb()) {
  return db
    .select({ id: profiles.id, fullName: profiles.fullName, email: profiles.email })
    .from(profiles)
    .where(holdsNoStaffRole(profiles.id))
    .orderBy(asc(profiles.fullName), asc(profiles.email), asc(profiles.id))
    .limit(limit)
    .offset(offset);
}

/** One applicant's profile, or undefined when there is no such applicant (staff included). */
export async function applicantProfile(clientId: string, db: DbOrTx = getDb()) {
  const [profile] = await db
    .select(columnsOf(profiles, ["id", "fullName", "email", "phone", "address", "city", "state", "zipCode"]))
    .from(profiles)
    .where(and(eq(profiles.id, clientId), holdsNoStaffRole(profiles.id)))
    .limit(1);
  return profile;
}
