import { servicingTermsFrom } from "~/domain/servicing-terms";
import { getConfig } from "~/server/platform/config.server";
import type { Db } from "~/server/platform/db/client.server";
import { fillMissingAudited } from "~/server/platform/db/fill-missing.server";
import { loanOffers } from "~/server/platform/db/schema.server";

/**
 * Offers made before servicing terms were stored get the terms of the lender's settings in force at
 * this step (the settings they were made under, unless changed since), one audit row each.
 */
export function recordOfferTermsInForce(db: Db, lateFeePolicy = getConfig().lateFeePolicy): Promise<number> {
  const terms = servicingTermsFrom(lateFeePolicy);
  return fillMissingAudited(db, loanOffers, {
    id: loanOffers.id,
    column: "servicingTerms",
    value: terms,
    action: "offer.terms_recorded",
    details: { servicingTerms: terms, source: "the lender's settings in force when servicing terms began to be stored" },
  });
}
