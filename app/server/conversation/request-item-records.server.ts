import { and, asc, eq, inArray, lt, sql, type SQL } from "drizzle-orm";
import { getDb, type DbOrTx } from "~/server/platform/db/client.server";
import { requestItems } from "~/server/platform/db/schema.server";

/** Items still waiting for the applicant's answer (asked, or answered and rejected). */
const WAITING = ["requested", "rejected"] as const;

/** The application's items past their due date and still waiting for an answer. */
function overdueItems(db: DbOrTx, applicationId: string, today: string) {
  return db
    .select({ id: requestItems.id })
    .from(requestItems)
    .where(and(eq(requestItems.applicationId, applicationId), inArray(requestItems.status, [...WAITING]), lt(requestItems.dueDate, today)));
}

/** The ids of the application's overdue items still waiting for an answer (none: nothing overdue). */
export async function overdueItemIds(applicationId: string, today: string, db: DbOrTx = getDb()): Promise<string[]> {
  return (await overdueItems(db, applicationId, today)).map((r) => r.id);
}

/**
 * The same, locked FOR UPDATE until the transaction ends (Close as Incomplete: an answer arriving
 * meanwhile waits, then finds the application closed).
 */
export async function lockOverdueItems(tx: DbOrTx, applicationId: string, today: string): Promise<string[]> {
  return (await overdueItems(tx, applicationId, today).for("update")).map((r) => r.id);
}

/** SQL: whether the application `applicationId` (an SQL expression, correlated) has an item waiting for an answer. */
export function itemWaitingSql(applicationId: SQL): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${requestItems} ri where ri.application_id = ${applicationId} and ri.status in ('requested', 'rejected'))`;
}

/** SQL: when the application `applicationId` (an SQL expression, correlated) last had an item answered, or null. */
export function lastAnswerAtSql(applicationId: SQL): SQL<Date | null> {
  return sql<Date | null>`(select max(ri.answered_at) from ${requestItems} ri where ri.application_id = ${applicationId})`;
}

/**
 * A person's items waiting for their answer on the applications `applicationIdsSql` selects (the
 * owner's subquery: their open ones), soonest due first, at most `limit`: one query (the dashboard's).
 */
export async function waitingItemsOf(userId: string, applicationIdsSql: SQL, limit: number, db: DbOrTx = getDb()) {
  return db
    .select({ id: requestItems.id, applicationId: requestItems.applicationId, kind: requestItems.kind, status: requestItems.status, dueDate: requestItems.dueDate })
    .from(requestItems)
    .where(and(eq(requestItems.userId, userId), inArray(requestItems.status, [...WAITING]), sql`${requestItems.applicationId} in (${applicationIdsSql})`))
    .orderBy(asc(requestItems.dueDate), asc(requestItems.createdAt), asc(requestItems.id))
    .limit(limit);
}
