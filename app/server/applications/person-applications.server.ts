import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { OPEN_REVIEW_STATUSES } from "~/domain/application-lifecycle";
import { sqlList } from "~/server/platform/db/columns.server";
import { getDb, type DbOrTx } from "~/server/platform/db/client.server";
import { bankAccounts, loanApplications, loanDocuments } from "~/server/platform/db/schema.server";

/** One person's applications as Close My Account (what is kept, what blocks closing) and Download My Data see them. */

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

/** The person's applications (oldest first), with the bank accounts and documents given with them, as held (Download My Data). */
export async function applicationRecordsOfPerson(userId: string, db: DbOrTx = getDb()) {
  const apps = await db.select().from(loanApplications).where(eq(loanApplications.userId, userId)).orderBy(asc(loanApplications.submittedAt));
  const appIds = apps.map((a) => a.id);
  if (appIds.length === 0) return { apps, banks: [], docs: [] };
  const banks = await db
    .select()
    .from(bankAccounts)
    .where(and(eq(bankAccounts.userId, userId), inArray(bankAccounts.applicationId, appIds)));
  const docs = await db
    .select()
    .from(loanDocuments)
    .where(and(eq(loanDocuments.userId, userId), inArray(loanDocuments.applicationId, appIds)))
    .orderBy(asc(loanDocuments.uploadedAt));
  return { apps, banks, docs };
}
