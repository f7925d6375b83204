import { sql, type SQL } from "drizzle-orm";
import { OPEN_REVIEW_STATUSES } from "~/domain/application-lifecycle";
import { DECIDED_APPLICATION_STATUSES } from "~/domain/enums";
import { rangeInstants, type ReportRange } from "~/domain/validation/reports";
import { getDb, type Db } from "~/server/platform/db/client.server";
import { sqlList } from "~/server/platform/db/columns.server";
import { decisionDaysOf, decisionSecondsOf, loanApplications } from "~/server/platform/db/schema.server";

/**
 * The figures of loan_applications the pipeline report (staff/) reads beside its rollups: exact index
 * counts of the edge of a range, as scalar subqueries the report puts in its own statements, and the
 * exact median's two durations.
 */

const OPEN = sqlList(OPEN_REVIEW_STATUSES);
const DECIDED = sqlList(DECIDED_APPLICATION_STATUSES);

/** How many open applications were submitted in [from, to] (both instants included), as a scalar subquery. */
export function openSubmittedBetween(from: Date, to: Date): SQL {
  return sql`(select count(*) from ${loanApplications} where ${loanApplications.status} in ${OPEN} and ${loanApplications.submittedAt} >= ${from.toISOString()}::timestamptz and ${loanApplications.submittedAt} <= ${to.toISOString()}::timestamptz)`;
}

/** How many open applications have been complete since an instant in [from, to], as a scalar subquery (loan_applications_reg_b_idx). */
export function openCompleteBetween(from: Date, to: Date): SQL {
  return sql`(select count(*) from ${loanApplications} where ${loanApplications.status} in ${OPEN} and ${loanApplications.completeSince} is not null
           and ${loanApplications.completeSince} >= ${from.toISOString()}::timestamptz
           and ${loanApplications.completeSince} <= ${to.toISOString()}::timestamptz)`;
}

/**
 * The median shown when positions lo and hi (hi = lo + 1) of the range's decisions fall in two display
 * buckets: lo is then the last decision of its bucket and hi the first of the other, so the two
 * durations are the largest of `loBucket` and the smallest of `hiBucket` within the range, each the
 * first entry of loan_applications_decision_days_idx from the bucket's edge that is in the range (the
 * range is checked in the index). percentile_cont over those two interpolates exactly as over them all.
 */
export async function straddlingMedian(range: ReportRange, loBucket: string, hiBucket: string, db: Db = getDb()): Promise<string | null> {
  const { start, end } = rangeInstants(range);
  const duration = decisionSecondsOf(loanApplications.reviewedAt, loanApplications.submittedAt);
  const bucket = decisionDaysOf(loanApplications.reviewedAt, loanApplications.submittedAt);
  const decidedIn = (b: string) =>
    sql`${loanApplications.status} in ${DECIDED} and ${loanApplications.reviewedAt} is not null and ${bucket} = ${b}::numeric
      and ${loanApplications.submittedAt} >= ${start.toISOString()}::timestamptz and ${loanApplications.submittedAt} < ${end.toISOString()}::timestamptz`;
  const result = await db.execute(sql`
      select round((percentile_cont(0.5) within group (order by v) / 86400)::numeric, 1)::text as days
      from ((select ${duration} as v from ${loanApplications} where ${decidedIn(loBucket)} order by ${duration} desc limit 1)
            union all
            (select ${duration} as v from ${loanApplications} where ${decidedIn(hiBucket)} order by ${duration} asc limit 1)) middle`);
  const [exact] = (result as unknown as { rows: { days: string | null }[] }).rows;
  return exact?.days ?? null;
}
