import { asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { CURRENT_LOAN_STATUSES } from "~/domain/application-lifecycle";
import { sqlList } from "~/server/platform/db/columns.server";
import { getDb, type DbOrTx } from "~/server/platform/db/client.server";
import { autopayConsentsOfPerson } from "./autopay-consents.server";
import { approvedLoans, loanFees, loanPayments } from "~/server/platform/db/schema.server";

/** One person's loans as Close My Account and Download My Data see them. */

/**
 * Whether the person has a current loan (approved or active), as a fragment, so a caller reading several
 * modules' states at once keeps them in one statement, one snapshot.
 */
export function hasCurrentLoan(userId: string): SQL<boolean> {
  return sql`exists (select 1 from ${approvedLoans} where ${approvedLoans.userId} = ${userId} and ${approvedLoans.status} in ${sqlList(CURRENT_LOAN_STATUSES)})`;
}

export type LoanState = { status: (typeof approvedLoans.$inferSelect)["status"]; updatedAt: Date };

/** The loans of these applications (status and last change), by application id, in one query. */
export async function loanStatesByApplicationIds(applicationIds: readonly string[], db: DbOrTx = getDb()): Promise<Map<string, LoanState>> {
  if (applicationIds.length === 0) return new Map();
  const rows = await db
    .select({ applicationId: approvedLoans.applicationId, status: approvedLoans.status, updatedAt: approvedLoans.updatedAt })
    .from(approvedLoans)
    .where(inArray(approvedLoans.applicationId, [...applicationIds]));
  return new Map(rows.map((r) => [r.applicationId, { status: r.status, updatedAt: r.updatedAt }]));
}

/** The person's loans, payments and the loans' fees, as held (Download My Data). */
export async function loanRecordsOfPerson(userId: string, db: DbOrTx = getDb()) {
  const loans = await db.select().from(approvedLoans).where(eq(approvedLoans.userId, userId)).orderBy(asc(approvedLoans.approvalDate));
  const loanIds = loans.map((l) => l.id);
  const payments = await db.select().from(loanPayments).where(eq(loanPayments.userId, userId)).orderBy(asc(loanPayments.createdAt));
  const fees = loanIds.length === 0 ? [] : await db.select().from(loanFees).where(inArray(loanFees.loanId, loanIds));
  const autopays = loanIds.length === 0 ? [] : await autopayConsentsOfPerson(userId, db);
  return { loans, payments, fees, autopays };
}
