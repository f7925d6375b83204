import { eq } from "drizzle-orm";
import { getDb, type DbOrTx } from "~/server/platform/db/client.server";
import { loanOffers, signedAgreements } from "~/server/platform/db/schema.server";

/**
 * What funding a loan needs of its signed offer: who signed the agreement and when, and the
 * origination fee the offer states (deducted from the proceeds unless staff record it collected).
 * Null when the offer has no signed agreement.
 */
export async function signedOfferFacts(
  offerId: string,
  db: DbOrTx = getDb(),
): Promise<{ signerName: string; signedAt: Date; originationFeeCents: number; amountFinancedCents: number } | null> {
  const [row] = await db
    .select({
      signerName: signedAgreements.signerName,
      signedAt: signedAgreements.signedAt,
      originationFeeCents: loanOffers.originationFeeCents,
      amountFinancedCents: loanOffers.amountFinancedCents,
    })
    .from(signedAgreements)
    .innerJoin(loanOffers, eq(loanOffers.id, signedAgreements.offerId))
    .where(eq(signedAgreements.offerId, offerId))
    .limit(1);
  return row ?? null;
}
