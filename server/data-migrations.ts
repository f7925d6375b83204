import { recordLoanTermsInForce, recordPriorPaymentValidations } from "~/server/loans/index.server";
import { recordOfferTermsInForce } from "~/server/offers/index.server";
import type { Database } from "~/server/platform/db/client.server";

/**
 * The data steps after the SQL migrations: values SQL cannot know because they come from the settings.
 * Each is a no-op once done, so every start and every migrate step runs them. Returns what they did,
 * one line each, for the log.
 */
export async function migrateData(database: Database): Promise<string[]> {
  const offers = await recordOfferTermsInForce(database.db);
  const loans = await recordLoanTermsInForce(database.db);
  const validated = await recordPriorPaymentValidations(database.db);
  const lines: string[] = [];
  if (offers > 0) lines.push(`Recorded the servicing terms in force on ${offers} offer${offers === 1 ? "" : "s"} made before terms were stored.`);
  if (loans > 0) lines.push(`Recorded the servicing terms in force on ${loans} loan${loans === 1 ? "" : "s"} signed before terms were stored.`);
  if (validated > 0) lines.push(`Recorded ${validated} bank account${validated === 1 ? "" : "s"} as validated by a posted ACH debit made before accounts were validated.`);
  return lines;
}
