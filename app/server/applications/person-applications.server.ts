import { eq, sql, type SQL } from "drizzle-orm";
import { OPEN_REVIEW_STATUSES } from "~/domain/application-lifecycle";
import { sqlList } from "~/server/platform/db/columns.server";
import { getDb, type DbOrTx } from "~/server/platform/db/client.server";
import { loanApplications } from "~/server/platform/db/schema.server";

/** One person's applications as Close My Account sees them: what is kept, and what blocks closing. */

/** The person's applications with the dates their retention clocks start from (the disposal job's clocks). */
export async function applicationClocksOf(userId: string, db: DbOrTx = getDb()) {
  return db
    .select({
      id: loanApplications.id,
      loanType: loanApplications.loanType,
      status: loanApplications.status,
      reviewedAt: loanApplications.reviewedAt,
      withdrawnAt: loanApplications.withdrawnAt,
      updatedAt: loanApplications.updatedAt,
    })
    .from(loanApplications)
    .where(eq(loanApplications.userId, userId));
}

/**
 * A scalar subquery: the person's first application still under consideration (pending or under
 * review), or null. A fragment, so a caller reading several modules' states at once keeps them in one
 * statement, one snapshot.
 */
export function openApplicationOf(userId: string): SQL<string | null> {
  return sql`(select ${loanApplications.id} from ${loanApplications} where ${loanApplications.userId} = ${userId} and ${loanApplications.status} in ${sqlList(OPEN_REVIEW_STATUSES)}
      order by ${loanApplications.submittedAt}, ${loanApplications.id} limit 1)`;
}

/** An application's loan type and status (the words of a message that names it), or undefined. */
export async function applicationTypeAndStatus(applicationId: string, db: DbOrTx = getDb()) {
  const [row] = await db
    .select({ loanType: loanApplications.loanType, status: loanApplications.status })
    .from(loanApplications)
    .where(eq(loanApplications.id, applicationId))
    .limit(1);
  return row;
}
