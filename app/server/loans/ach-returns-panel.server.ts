import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { addDays, todayUtc } from "~/domain/dates";
import { ACCOUNT_UNUSABLE_RETURN_CODES, RETURN_RATE_THRESHOLDS, RETURN_RATE_WINDOW_DAYS, UNAUTHORIZED_RETURN_CODES } from "~/domain/ach-returns";
import type { AccountRestrictionView, OpenLoanFlag, OriginatorReturnRates, ReturnRate, ReturnRatesPanel } from "~/domain/views/ach-returns";
import { peopleByIds } from "~/server/accounts/index.server";
import { bankAccountsOfUser } from "~/server/applications/index.server";
import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";
import { getConfig } from "~/server/platform/config.server";
import { getDb, type Db, type DbOrTx } from "~/server/platform/db/client.server";
import { achBatches, approvedLoans, loanFlags, loanPayments } from "~/server/platform/db/schema.server";
import { AppError } from "~/server/platform/http/app-error.server";
import { accountRestrictions, loanUsesAccount } from "./account-restrictions.server";

/**
 * Returns as staff watch them: the return rates per originator over the last RETURN_RATE_WINDOW_DAYS
 * days against Nacha's thresholds (unauthorised above 0.5 % draws Nacha's inquiry, administrative
 * R02/R03/R04 above 3 %, all returns above 15 %), the open loan flags (an unauthorised return) with
 * Resolve Flag, and the restrictions on a loan's bank accounts.
 */

export const LOAN_FLAG_MESSAGES = {
  notFound: "This flag does not exist.",
  alreadyResolved: "This flag was already resolved (by someone else at the same time, or earlier).",
} as const;

const codeList = (codes: readonly string[]) =>
  sql.join(
    codes.map((c) => sql`${c}`),
    sql`, `,
  );

function rate(returns: number, entries: number, threshold: number): ReturnRate {
  const value = entries > 0 ? returns / entries : 0;
  return { returns, rate: value, threshold, above: value > threshold };
}

/**
 * Return rates per originator: every debit entry in a file effective within the window (a retry is an
 * entry of its own, as Nacha counts it), and those of them returned, by kind of code. One aggregate.
 */
export async function returnRates(db: DbOrTx = getDb(), today: string = todayUtc()): Promise<ReturnRatesPanel> {
  const since = addDays(today, -RETURN_RATE_WINDOW_DAYS);
  const configured = getConfig().ach.companyId;
  const rows = (await db.execute(sql`
    select coalesce(${achBatches.originatorId}, ${configured}) as originator,
      count(*)::int as entries,
      (count(*) filter (where ${loanPayments.returnCode} is not null and ${loanPayments.status} = 'returned'))::int as returns,
      (count(*) filter (where ${loanPayments.status} = 'returned' and ${loanPayments.returnCode} in (${codeList(UNAUTHORIZED_RETURN_CODES)})))::int as unauthorized,
      (count(*) filter (where ${loanPayments.status} = 'returned' and ${loanPayments.returnCode} in (${codeList(ACCOUNT_UNUSABLE_RETURN_CODES)})))::int as administrative
    from ${loanPayments} join ${achBatches} on ${achBatches.id} = ${loanPayments.achBatchId}
    where ${achBatches.effectiveDate} > ${since} and ${achBatches.effectiveDate} <= ${today}
    group by 1 order by 1`)) as unknown as { rows?: Record<string, unknown>[] } | Record<string, unknown>[];
  const list = Array.isArray(rows) ? rows : (rows.rows ?? []);
  const originators: OriginatorReturnRates[] = list.map((r) => {
    const entries = Number(r.entries);
    const returns = Number(r.returns);
    return {
      originatorId: String(r.originator),
      debitEntries: entries,
      returns,
      unauthorized: rate(Number(r.unauthorized), entries, RETURN_RATE_THRESHOLDS.unauthorized),
      administrative: rate(Number(r.administrative), entries, RETURN_RATE_THRESHOLDS.administrative),
      overall: rate(returns, entries, RETURN_RATE_THRESHOLDS.overall),
    };
  });
  return { windowDays: RETURN_RATE_WINDOW_DAYS, since: addDays(since, 1), originators };
}

/** The open flags (of one loan, or of every loan), newest first, with each loan's borrower. */
export async function openLoanFlags(db: DbOrTx = getDb(), loanId?: string): Promise<OpenLoanFlag[]> {
  const rows = await db
    .select({
      flagId: loanFlags.id,
      loanId: loanFlags.loanId,
      userId: approvedLoans.userId,
      kind: loanFlags.kind,
      returnCode: loanFlags.returnCode,
      summary: loanFlags.summary,
      createdAt: loanFlags.createdAt,
    })
    .from(loanFlags)
    .innerJoin(approvedLoans, eq(approvedLoans.id, loanFlags.loanId))
    .where(and(isNull(loanFlags.resolvedAt), loanId ? eq(loanFlags.loanId, loanId) : undefined))
    .orderBy(desc(loanFlags.createdAt), desc(loanFlags.id))
    .limit(200);
  const people = await peopleByIds(rows.map((r) => r.userId), db);
  return rows.map(({ userId, createdAt, ...r }) => ({ ...r, borrower: people.get(userId)?.name ?? "—", createdAt: createdAt.toISOString() }));
}

/** The live restrictions on the bank accounts of a loan's borrower, oldest first. */
export async function loanAccountRestrictions(loanId: string, db: DbOrTx = getDb()): Promise<AccountRestrictionView[]> {
  const [loan] = await db.select({ id: approvedLoans.id, userId: approvedLoans.userId, applicationId: approvedLoans.applicationId }).from(approvedLoans).where(eq(approvedLoans.id, loanId)).limit(1);
  if (!loan) return [];
  const accounts = await bankAccountsOfUser(loan.userId, db);
  const restrictions = await accountRestrictions(accounts.map((a) => a.id), db);
  const views: AccountRestrictionView[] = [];
  // Usually one restricted account: one small query each says whether this loan's page may clear it.
  for (const a of accounts) {
    const r = restrictions.get(a.id);
    if (r) views.push({ bankAccountId: a.id, accountMasked: a.last4 ? `••••${a.last4}` : null, kind: r.kind, returnCode: r.returnCode, since: r.since, clearable: await loanUsesAccount(db, loan, a.id) });
  }
  return views.sort((x, y) => x.since.localeCompare(y.since));
}

/**
 * Resolve Flag: staff looked at the case and say what they did (a required note). One conditional
 * UPDATE … WHERE resolved_at IS NULL, so two staff at once leave one resolution; audited. `onLoan`:
 * from a loan's page, a flag of another loan is as unknown as a made-up one (404).
 */
export async function resolveLoanFlag(flagId: string, note: string, { actor, request }: Caller, db: Db = getDb(), onLoan?: string): Promise<{ loanId: string }> {
  return db.transaction(async (tx) => {
    const [resolved] = await tx
      .update(loanFlags)
      .set({ resolvedAt: sql`now()`, resolvedBy: actor.id, resolution: note })
      .where(and(eq(loanFlags.id, flagId), isNull(loanFlags.resolvedAt), onLoan ? eq(loanFlags.loanId, onLoan) : undefined))
      .returning({ id: loanFlags.id, loanId: loanFlags.loanId, kind: loanFlags.kind, returnCode: loanFlags.returnCode });
    if (!resolved) {
      const [exists] = await tx
        .select({ id: loanFlags.id })
        .from(loanFlags)
        .where(and(eq(loanFlags.id, flagId), onLoan ? eq(loanFlags.loanId, onLoan) : undefined))
        .limit(1);
      throw new AppError("servicing", exists ? 409 : 404, exists ? LOAN_FLAG_MESSAGES.alreadyResolved : LOAN_FLAG_MESSAGES.notFound);
    }
    await writeAudit(tx, { actor, action: "loan.flag_resolve", table: "loan_flags", recordId: resolved.id, details: { loanId: resolved.loanId, kind: resolved.kind, returnCode: resolved.returnCode }, request });
    return { loanId: resolved.loanId };
  });
}

