import { and, asc, eq, inArray } from "drizzle-orm";
import { getDb, type DbOrTx } from "~/server/platform/db/client.server";
import { esignConsents, loanOffers, signedAgreements } from "~/server/platform/db/schema.server";

/** A person's offers (of these applications), signed agreements and E-SIGN consents, as held (Download My Data). */
export async function offerRecordsOfPerson(userId: string, applicationIds: readonly string[], db: DbOrTx = getDb()) {
  const offers =
    applicationIds.length === 0
      ? []
      : await db
          .select()
          .from(loanOffers)
          .where(and(eq(loanOffers.userId, userId), inArray(loanOffers.applicationId, [...applicationIds])));
  const agreements = await db.select().from(signedAgreements).where(eq(signedAgreements.userId, userId));
  const consents = await db.select().from(esignConsents).where(eq(esignConsents.userId, userId)).orderBy(asc(esignConsents.consentedAt));
  return { offers, agreements, consents };
}
