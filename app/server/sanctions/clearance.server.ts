import { desc, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "~/server/platform/db/client.server";
import { sanctionsMatches, sanctionsScreenings } from "~/server/platform/db/schema.server";

/**
 * Where an application stands with sanctions screening, as the funding checklist and the staff pages
 * read it: not screened; clear (its last screening compared it with at least one list and left no
 * open match); a potential match staff have not decided (blocks funding); or a confirmed match (the
 * application is denied and frozen).
 *
 * A screening that ran while no list was loaded (its `lists` is []) compared the person with nothing:
 * it is recorded, but it does not make the application clear. Until a screening against a loaded
 * list finds no open match the state stays "not_screened", so funding cannot pass on an empty list.
 */
export type SanctionsClearance = {
  state: "not_screened" | "clear" | "potential_match" | "confirmed";
  /** The last screening's time, null when never screened. */
  screenedAt: Date | null;
  /** Potential matches staff have not decided yet. */
  openMatches: number;
};

export async function sanctionsClearance(applicationId: string, db: DbOrTx): Promise<SanctionsClearance> {
  const [last] = await db
    .select({ screenedAt: sanctionsScreenings.screenedAt, lists: sanctionsScreenings.lists })
    .from(sanctionsScreenings)
    .where(eq(sanctionsScreenings.applicationId, applicationId))
    .orderBy(desc(sanctionsScreenings.screenedAt), desc(sanctionsScreenings.id))
    .limit(1);
  const counts = await db
    .select({ status: sanctionsMatches.status, n: sql<number>`count(*)::int` })
    .from(sanctionsMatches)
    .where(eq(sanctionsMatches.applicationId, applicationId))
    .groupBy(sanctionsMatches.status);
  const count = (status: string) => Number(counts.find((c) => c.status === status)?.n ?? 0);
  const openMatches = count("open");
  const comparedWithAList = Array.isArray(last?.lists) && last.lists.length > 0;
  const state = count("confirmed") > 0 ? "confirmed" : openMatches > 0 ? "potential_match" : comparedWithAList ? "clear" : "not_screened";
  return { state, screenedAt: last?.screenedAt ?? null, openMatches };
}
