import { eq, inArray, sql, type Placeholder, type SQL } from "drizzle-orm";
import { OPEN_REVIEW_STATUSES } from "~/domain/application-lifecycle";
import { getDb, type DbOrTx } from "~/server/platform/db/client.server";
import { loanApplications } from "~/server/platform/db/schema.server";

/**
 * What other modules read of an application: who applied, its status and loan, and the applicant's
 * name and mailing address as given on it. Never the SSN or anything encrypted.
 */
const RECORD_COLUMNS = {
  id: loanApplications.id,
  userId: loanApplications.userId,
  status: loanApplications.status,
  loanType: loanApplications.loanType,
  requestedAmountCents: loanApplications.requestedAmountCents,
  firstName: loanApplications.firstName,
  middleInitial: loanApplications.middleInitial,
  lastName: loanApplications.lastName,
  email: loanApplications.email,
  addressLine1: loanApplications.addressLine1,
  addressLine2: loanApplications.addressLine2,
  city: loanApplications.city,
  state: loanApplications.state,
  zipCode: loanApplications.zipCode,
};

export type ApplicationRecord = Pick<typeof loanApplications.$inferSelect, keyof typeof RECORD_COLUMNS>;

/** The applications with these ids, in one query (a page passes its page's ids, never one per row). */
export async function applicationsByIds(ids: readonly string[], db: DbOrTx = getDb()): Promise<Map<string, ApplicationRecord>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const rows = await db.select(RECORD_COLUMNS).from(loanApplications).where(inArray(loanApplications.id, wanted));
  return new Map(rows.map((row) => [row.id, row]));
}

/** One application, or null. */
export async function applicationById(id: string, db: DbOrTx = getDb()): Promise<ApplicationRecord | null> {
  const [row] = await db.select(RECORD_COLUMNS).from(loanApplications).where(eq(loanApplications.id, id)).limit(1);
  return row ?? null;
}

/**
 * The application, its row locked FOR UPDATE until the transaction ends, or null: a caller that
 * writes about an application (a request, an offer) holds it still against a decision landing meanwhile.
 */
export async function lockApplication(tx: DbOrTx, id: string): Promise<ApplicationRecord | null> {
  const [row] = await tx.select(RECORD_COLUMNS).from(loanApplications).where(eq(loanApplications.id, id)).for("update", { of: loanApplications });
  return row ?? null;
}

/** Marks the application changed now (lists sorted by last change show it first). */
export async function touchApplication(tx: DbOrTx, id: string): Promise<void> {
  await tx.update(loanApplications).set({ updatedAt: sql`now()` }).where(eq(loanApplications.id, id));
}


/**
 * SQL for the ids of a person's applications (by loan_applications' user_id index), for another module's
 * statement that must stay one query (a prepared badge count): `userId` may be a placeholder.
 */
export function applicationIdsOfSql(userId: string | Placeholder): SQL {
  return sql`select ${loanApplications.id} from ${loanApplications} where ${loanApplications.userId} = ${userId}`;
}

/**
 * SQL for "the application is still open for review", a condition for another module's conditional
 * UPDATE, so the check and the change are one statement (a decision committing first wins).
 */
export function applicationOpenSql(applicationId: string): SQL {
  return sql`exists (select 1 from ${loanApplications} where ${loanApplications.id} = ${applicationId} and ${inArray(loanApplications.status, [...OPEN_REVIEW_STATUSES])})`;
}
