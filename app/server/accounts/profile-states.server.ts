import { inArray } from "drizzle-orm";
import { getDb, type DbOrTx } from "~/server/platform/db/client.server";
import { profiles } from "~/server/platform/db/schema.server";

/**
 * The US state on each person's profile (their mailing address), for the collections contact hours:
 * one query for all of them; a person with no profile or no state is absent from the map.
 */
export async function profileStatesByIds(userIds: readonly string[], db: DbOrTx = getDb()): Promise<Map<string, string>> {
  const wanted = [...new Set(userIds)];
  if (wanted.length === 0) return new Map();
  const rows = await db.select({ id: profiles.id, state: profiles.state }).from(profiles).where(inArray(profiles.id, wanted));
  return new Map(rows.flatMap((r) => (r.state ? [[r.id, r.state] as [string, string]] : [])));
}
