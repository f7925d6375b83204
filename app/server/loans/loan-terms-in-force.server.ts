import { servicingTermsFrom } from "~/domain/servicing-terms";
import { getConfig } from "~/server/platform/config.server";
import type { Db } from "~/server/platform/db/client.server";
import { fillMissingAudited } from "~/server/platform/db/fill-missing.server";
import { approvedLoans } from "~/server/platform/db/schema.server";

/**
 * Loans signed before servicing terms were stored are serviced from then on by the lender's settings in
 * force at this step (the ones they were serviced under until then), fixed on the loan with one audit
 * row each; their signed documents are not re-signed.
 */
export function recordLoanTermsInForce(db: Db, lateFeePolicy = getConfig().lateFeePolicy): Promise<number> {
  const terms = servicingTermsFrom(lateFeePolicy);
  return fillMissingAudited(db, approvedLoans, {
    id: approvedLoans.id,
    column: "servicingTerms",
    value: terms,
    action: "loan.terms_recorded",
    details: { servicingTerms: terms, source: "the lender's settings in force when servicing terms began to be stored; the signed agreement is not re-signed" },
  });
}
