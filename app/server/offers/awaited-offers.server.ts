import { sql, type SQL } from "drizzle-orm";
import { loanOffers } from "~/server/platform/db/schema.server";

/**
 * A scalar subquery: the application of the person's first offer still waiting for their decision, or
 * null. A fragment, so a caller reading several modules' states at once keeps them in one statement.
 */
export function awaitedOfferApplication(userId: string): SQL<string | null> {
  return sql`(select ${loanOffers.applicationId} from ${loanOffers} where ${loanOffers.userId} = ${userId} and ${loanOffers.status} = 'offered'
      order by ${loanOffers.createdAt}, ${loanOffers.id} limit 1)`;
}
