import { and, desc, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "~/server/platform/db/client.server";
import { sanctionsMatches, sanctionsScreenings } from "~/server/platform/db/schema.server";

/**
 * Where an application stands with sanctions screening, as the funding checklist and the staff pages
 * read it: never screened; clear (its last screening left no open match); a potential match staff have
 * not decided (blocks funding); or a confirmed match (the application is denied and frozen).
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
    .select({ screenedAt: sanctionsScreenings.screenedAt })
    .from(sanctionsScreenings)
    .where(eq(sanctionsScreenings.applicationId, applicationId))
    .orderBy(desc(sanctionsScreenings.screenedAt))
    .limit(1);
  const counts = await db
    .select({ status: sanctionsMatches.status, n: sql<number>`count(*)::int` })
    .from(sanctionsMatches)
    .where(and(eq(sanctionsMatches.applicationId, applicationId)))
    .groupBy(sanctionsMatches.status);
  const count = (status: string) => Number(counts.find((c) => c.status === status)?.n ?? 0);
  const openMatches = count("open");
  const state = count("confirmed") > 0 ? "confirmed" : openMatches > 0 ? "potential_match" : last ? "clear" : "not_screened";
  return { state, screenedAt: last?.screenedAt ?? null, openMatches };
}
