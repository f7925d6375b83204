import { asc, sql, type SQL } from "drizzle-orm";
import { getDb, type DbOrTx } from "~/server/platform/db/client.server";
import { profiles, user as userTable } from "~/server/platform/db/schema.server";

/**
 * What other modules show of a person: the account's name and sign-in e-mail, and the profile's
 * full name, e-mail and phone (null when the person has no profile, as staff do not).
 */
export type Person = {
  id: string;
  /** The account's name (user.name). */
  name: string;
  /** The sign-in e-mail (user.email): where the lender's e-mails go. */
  email: string;
  profileName: string | null;
  profileEmail: string | null;
  profilePhone: string | null;
};

/**
 * The people with these ids, in one query (a list page passes its page's ids, never one per row).
 * Ids of deleted accounts are simply absent from the map. Each id is looked up by its primary key
 * (a lateral probe per id): an `in (...)` list lets the planner read a small user table whole, which
 * stops being small as accounts grow.
 */
export async function peopleByIds(ids: readonly (string | null | undefined)[], db: DbOrTx = getDb()): Promise<Map<string, Person>> {
  const wanted = [...new Set(ids.filter((id): id is string => typeof id === "string"))];
  if (wanted.length === 0) return new Map();
  const result = (await db.execute(sql`
    select person.* from unnest(array[${sql.join(wanted.map((id) => sql`${id}`), sql`, `)}]::text[]) as wanted(id)
    cross join lateral (
      select ${userTable.id} as "id", ${userTable.name} as "name", ${userTable.email} as "email",
        ${profiles.fullName} as "profileName", ${profiles.email} as "profileEmail", ${profiles.phone} as "profilePhone"
      from ${userTable} left join ${profiles} on ${profiles.id} = ${userTable.id}
      where ${userTable.id} = wanted.id
      limit 1
    ) as person`)) as unknown as { rows?: Person[] } | Person[];
  const rows = Array.isArray(result) ? result : (result.rows ?? []);
  return new Map(rows.map((row) => [row.id, row]));
}

/** One person by id, or null when the account is gone. */
export async function personById(id: string, db: DbOrTx = getDb()): Promise<Person | null> {
  return (await peopleByIds([id], db)).get(id) ?? null;
}

/**
 * The accounts whose ids `idsSql` selects (another module's subquery: active staff of some roles), by
 * name then id, in one statement: the order is the database's, as a list sorted by name always was.
 */
export async function accountNamesIn(idsSql: SQL, db: DbOrTx = getDb()): Promise<{ id: string; name: string }[]> {
  return db
    .select({ id: userTable.id, name: userTable.name })
    .from(userTable)
    .where(sql`${userTable.id} in (${idsSql})`)
    .orderBy(asc(userTable.name), asc(userTable.id));
}
