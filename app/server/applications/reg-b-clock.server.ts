import { sql, type SQL } from "drizzle-orm";
import { OPEN_REVIEW_STATUSES } from "~/domain/application-lifecycle";
import { REG_B_FLAG_DAYS } from "~/domain/reg-b-clock";
import { sqlList } from "~/server/platform/db/columns.server";
import { loanApplications } from "~/server/platform/db/schema.server";
import { itemWaitingSql, lastAnswerAtSql } from "~/server/conversation/index.server";

/**
 * The Reg B clock in SQL (definitions: ~/domain/reg-b-clock.ts), shared by the admin list's flag and
 * the reports page so both count the same applications. The rule (completeSinceRule) is kept in
 * loan_applications.complete_since by triggers (drizzle/0014, decision 0049), which the pages read so
 * an application's flag costs nothing and the flagged ones come off an index.
 */

// Written out with the table's name: in a select over loan_applications alone Drizzle leaves columns
// unqualified, and inside the subqueries an unqualified "id" would be request_items.id.
const APP_ID = sql.raw(`"loan_applications"."id"`);
const APP_SUBMITTED_AT = sql.raw(`"loan_applications"."submitted_at"`);
const APP_STATUS = sql.raw(`"loan_applications"."status"`);

/**
 * When the application became complete (timestamptz), or null while something asked for is outstanding.
 * The definition: drizzle/0014's portal_complete_since() computes the same, and a test compares the
 * kept column with this after random changes. Correlated on loan_applications.id. A function: the
 * request items' SQL comes from conversation/, whose front door may still be loading when this one is.
 */
export function completeSinceRule(): SQL<Date | null> {
  return sql<Date | null>`(case when ${itemWaitingSql(APP_ID)} then null else greatest(${APP_SUBMITTED_AT}, ${lastAnswerAtSql(APP_ID)}) end)`;
}

/** The kept value of completeSinceRule. */
export const completeSince = loanApplications.completeSince;

/** The instant at or before which an open application's completeness flags it at `now`. */
export function regBFlagCutoff(now: Date = new Date()): Date {
  return new Date(now.getTime() - REG_B_FLAG_DAYS * 86_400_000);
}

/**
 * Undecided and complete for REG_B_FLAG_DAYS or more at `now`. The statuses are written out, so the
 * planner matches loan_applications_reg_b_idx's predicate.
 */
export function regBFlagged(now: Date = new Date()): SQL<boolean> {
  return sql<boolean>`(${APP_STATUS} in ${sqlList(OPEN_REVIEW_STATUSES)} and ${completeSince} <= ${regBFlagCutoff(now).toISOString()}::timestamptz)`;
}
