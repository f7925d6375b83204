import { and, asc, gte, lt, sql } from "drizzle-orm";
import { getDb, type DbOrTx } from "~/server/platform/db/client.server";
import { bankAccounts, loanApplications } from "~/server/platform/db/schema.server";

/**
 * The applications CSV export's batches (staff/exports streams them): applications submitted in
 * [start, end), after the keyset cursor, in (submitted_at, id) order. Sensitive values never leave:
 * only whether there is an SSN, and the bank numbers' masked digits.
 */

/** The cursor keeps submitted_at as PostgreSQL's own text (microseconds), which a JS Date would cut to milliseconds. */
export type ApplicationCursor = { at: string; id: string };

/** The primary bank account, else the first one given (the masked digits only), correlated on the application's id. */
function firstBankAccount(column: typeof bankAccounts.accountNumberLast4 | typeof bankAccounts.routingNumberLast2) {
  return sql<string | null>`(select ${sql.raw(column.name)} from ${bankAccounts} b where b.application_id = "loan_applications"."id" order by b.is_primary desc, b.created_at asc, b.id asc limit 1)`;
}

export async function applicationExportBatch(start: Date, end: Date, after: ApplicationCursor | null, limit: number, db: DbOrTx = getDb()) {
  return db
    .select({
      id: loanApplications.id,
      cursorAt: sql<string>`${loanApplications.submittedAt}::text`,
      submittedAt: loanApplications.submittedAt,
      status: loanApplications.status,
      loanType: loanApplications.loanType,
      requestedAmountCents: loanApplications.requestedAmountCents,
      firstName: loanApplications.firstName,
      lastName: loanApplications.lastName,
      email: loanApplications.email,
      phone: loanApplications.phone,
      state: loanApplications.state,
      hasSsn: sql<boolean>`(${loanApplications.ssnEncrypted} is not null)`,
      accountLast4: firstBankAccount(bankAccounts.accountNumberLast4),
      routingLast2: firstBankAccount(bankAccounts.routingNumberLast2),
      assignedToId: loanApplications.assignedTo,
      reviewedAt: loanApplications.reviewedAt,
      decisionReasons: loanApplications.decisionReasons,
    })
    .from(loanApplications)
    .where(
      and(
        gte(loanApplications.submittedAt, start),
        lt(loanApplications.submittedAt, end),
        after ? sql`(${loanApplications.submittedAt}, ${loanApplications.id}) > (${after.at}::timestamptz, ${after.id}::uuid)` : undefined,
      ),
    )
    .orderBy(asc(loanApplications.submittedAt), asc(loanApplications.id))
    .limit(limit);
}
