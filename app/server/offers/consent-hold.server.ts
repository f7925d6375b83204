import { and, eq, isNull } from "drizzle-orm";
import type { DbOrTx } from "~/server/platform/db/client.server";
import { esignConsents } from "~/server/platform/db/schema.server";

/**
 * Holds an E-SIGN consent for the rest of the caller's transaction: true while it is not withdrawn.
 * A signing (the agreement, a loan modification) takes it so a withdrawal that committed first wins,
 * and one that comes after waits for the signing to commit.
 */
export async function holdCurrentConsent(tx: DbOrTx, consentId: string): Promise<boolean> {
  const [held] = await tx
    .select({ id: esignConsents.id })
    .from(esignConsents)
    .where(and(eq(esignConsents.id, consentId), isNull(esignConsents.withdrawnAt)))
    .for("update");
  return held !== undefined;
}
