import { and, asc, count, desc, eq, gte, inArray, isNotNull, lt, sql } from "drizzle-orm";
import { OPEN_REVIEW_STATUSES } from "~/domain/application-lifecycle";
import { APPLICATION_STATUSES, DECIDED_APPLICATION_STATUSES, LOAN_TYPES, type ApplicationStatus } from "~/domain/enums";
import { REG_B_DUE_DAYS, REG_B_FLAG_DAYS, daysBetween } from "~/domain/reg-b-clock";
import { rangeInstants, type ReportRange } from "~/domain/validation/reports";
import type { Db } from "~/server/platform/db/client.server";
import { loanApplications, user as userTable } from "~/server/platform/db/schema.server";
import { rateTenths, type PipelineReport } from "~/domain/views/pipeline-report";
import { encodeCursor } from "~/server/platform/db/paging.server";
import { AGEING_BUCKETS } from "~/server/staff/pipeline-report.server";
import { REG_B_LIST_SCOPE, REG_B_PAGE_SIZE } from "~/server/applications/reg-b-list.server";
import { completeSinceRule as completeSince } from "~/server/applications/reg-b-clock.server";
import { sqlList } from "~/server/platform/db/columns.server";

/**
 * The reports page's figures as issue 22 computed them, straight from loan_applications and
 * request_items (aggregates over the range, the Reg B clock's correlated subqueries): what the kept
 * rollups and complete_since (drizzle/0014, decision 0049) must reproduce exactly. Tests only.
 */

function regBFlagged(now: Date) {
  return sql<boolean>`("loan_applications"."status" in ${sqlList(OPEN_REVIEW_STATUSES)} and ${completeSince()} <= ${now.toISOString()}::timestamptz - make_interval(days => ${REG_B_FLAG_DAYS}))`;
}

function toIso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

export async function referencePipelineReport(range: ReportRange, db: Db, now: Date): Promise<PipelineReport> {
  const { start, end } = rangeInstants(range);
  const inRange = and(gte(loanApplications.submittedAt, start), lt(loanApplications.submittedAt, end));
  const decided = inArray(loanApplications.status, DECIDED_APPLICATION_STATUSES);
  const nowIso = now.toISOString();

  const ageDays = sql`floor(extract(epoch from (${nowIso}::timestamptz - ${loanApplications.submittedAt})) / 86400)`;
  const bucket = sql<string>`case when ${ageDays} <= 7 then '0-7' when ${ageDays} <= 14 then '8-14' when ${ageDays} <= 21 then '15-21' when ${ageDays} <= 29 then '22-29' else '30+' end`;
  const isStatus = (status: ApplicationStatus) => sql<number>`(count(*) filter (where ${loanApplications.status} = ${status}))::int`;

  const [statusRows, ageingRows, medianRows, officerRows, reasonRows, rateRows, regBCountRows, regBRows] = await Promise.all([
    db
      .select({ status: loanApplications.status, count: sql<number>`count(*)::int` })
      .from(loanApplications)
      .where(inRange)
      .groupBy(loanApplications.status),
    db
      .select({ bucket, count: sql<number>`count(*)::int` })
      .from(loanApplications)
      .where(and(inRange, inArray(loanApplications.status, OPEN_REVIEW_STATUSES)))
      // By position: the bucket's expression carries bound parameters, which PostgreSQL cannot match
      // between the select list and a repeated GROUP BY expression.
      .groupBy(sql.raw("1")),
    db
      .select({
        // Days with one decimal, rounded by PostgreSQL's numeric round (half away from zero).
        days: sql<string | null>`round((percentile_cont(0.5) within group (order by extract(epoch from (${loanApplications.reviewedAt} - ${loanApplications.submittedAt}))) / 86400)::numeric, 1)::text`,
        decisions: sql<number>`count(*)::int`,
      })
      .from(loanApplications)
      .where(and(inRange, decided, isNotNull(loanApplications.reviewedAt))),
    db
      .select({
        officerId: loanApplications.reviewedBy,
        name: userTable.name,
        approved: isStatus("approved"),
        denied: isStatus("denied"),
        incomplete: isStatus("incomplete"),
        total: sql<number>`count(*)::int`,
      })
      .from(loanApplications)
      .leftJoin(userTable, eq(userTable.id, loanApplications.reviewedBy))
      .where(and(inRange, decided))
      .groupBy(loanApplications.reviewedBy, userTable.name)
      .orderBy(desc(sql`count(*)`), asc(userTable.name)),
    db.execute<{ reason: string; count: number }>(sql`
      select reason, count(*)::int as count
      from ${loanApplications}, unnest(${loanApplications.decisionReasons}) as reason
      where ${loanApplications.status} = 'denied' and ${inRange}
      group by reason
      order by count(*) desc, reason asc`),
    db
      .select({ loanType: loanApplications.loanType, approved: isStatus("approved"), decided: sql<number>`count(*)::int` })
      .from(loanApplications)
      .where(and(inRange, decided))
      .groupBy(loanApplications.loanType),
    db.select({ count: count() }).from(loanApplications).where(regBFlagged(now)),
    db
      .select({
        id: loanApplications.id,
        firstName: loanApplications.firstName,
        lastName: loanApplications.lastName,
        loanType: loanApplications.loanType,
        completeSince: completeSince(),
        // The key as PostgreSQL prints it: what the Next token carries.
        key: sql<string>`${completeSince()}::text`,
      })
      .from(loanApplications)
      // Drizzle writes a single-table query's select list without table names, and completeSince's
      // correlated subqueries would then read request_items' own "id": any join makes every column
      // reference qualified. (The assignee join is one to one and adds nothing else.)
      .leftJoin(userTable, eq(userTable.id, loanApplications.assignedTo))
      .where(regBFlagged(now))
      .orderBy(asc(completeSince()), asc(loanApplications.id))
      // The list's first page, and the row after it (whether there is a Next).
      .limit(REG_B_PAGE_SIZE + 1),
  ]);

  const statusCounts = new Map(statusRows.map((r) => [r.status, Number(r.count)]));
  const ageingCounts = new Map(ageingRows.map((r) => [r.bucket, Number(r.count)]));
  const rates = new Map(rateRows.map((r) => [r.loanType, r]));
  const regBCount = Number(regBCountRows[0]?.count ?? 0);
  const regBPage = regBRows.slice(0, REG_B_PAGE_SIZE);
  const regBLast = regBPage.at(-1);
  const reasons = (reasonRows as unknown as { rows: { reason: string; count: number }[] }).rows;

  return {
    range,
    generatedAt: nowIso,
    byStatus: APPLICATION_STATUSES.map((status) => ({ status, count: statusCounts.get(status) ?? 0 })),
    ageing: AGEING_BUCKETS.map((b) => ({ key: b.key, label: b.label, count: ageingCounts.get(b.key) ?? 0 })),
    medianDecision: { days: medianRows[0]?.days ?? null, decisions: Number(medianRows[0]?.decisions ?? 0) },
    perOfficer: officerRows.map((r) => ({
      officerId: r.officerId,
      // A decision whose reviewer's account was since deleted keeps counting, under a name that says so.
      name: r.name ?? (r.officerId ? "Former staff member" : "Not recorded"),
      approved: Number(r.approved),
      denied: Number(r.denied),
      incomplete: Number(r.incomplete),
      total: Number(r.total),
    })),
    denialReasons: reasons.map((r) => ({ reason: r.reason, count: Number(r.count) })),
    approvalRate: LOAN_TYPES.map((loanType) => {
      const row = rates.get(loanType);
      const approved = Number(row?.approved ?? 0);
      const decidedCount = Number(row?.decided ?? 0);
      return { loanType, approved, decided: decidedCount, rateTenths: rateTenths(approved, decidedCount) };
    }),
    regB: {
      count: regBCount,
      page: 1,
      pageCount: Math.max(1, Math.ceil(regBCount / REG_B_PAGE_SIZE)),
      cursors: {
        prev: null,
        next: regBRows.length > REG_B_PAGE_SIZE && regBLast ? encodeCursor({ scope: REG_B_LIST_SCOPE, page: 2, key: [regBLast.key, regBLast.id] }) : null,
      },
      items: regBPage.map((r) => {
        const since = new Date(toIso(r.completeSince!));
        return {
          id: r.id,
          applicantName: `${r.firstName} ${r.lastName}`,
          loanType: r.loanType,
          completeSince: since.toISOString(),
          decideBy: new Date(since.getTime() + REG_B_DUE_DAYS * 86_400_000).toISOString(),
          daysLeft: REG_B_DUE_DAYS - daysBetween(since, now),
        };
      }),
    },
  };
}
