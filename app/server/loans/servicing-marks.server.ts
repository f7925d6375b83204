import { eq } from "drizzle-orm";
import type { DbOrTx } from "~/server/platform/db/client.server";
import { approvedLoans } from "~/server/platform/db/schema.server";

/**
 * A loan's `servicedOn` says the daily servicing job has looked at it today. Clearing it makes the job
 * look again: a borrower who turns payment reminders back on may be owed one today. Call it in the
 * transaction that changes what the job would decide.
 */
export async function clearServicingMarks(userId: string, tx: DbOrTx): Promise<void> {
  await tx.update(approvedLoans).set({ servicedOn: null }).where(eq(approvedLoans.userId, userId));
}
