import { sql, type SQL } from "drizzle-orm";
import { OPEN_REVIEW_STATUSES } from "~/domain/application-lifecycle";
import { REG_B_FLAG_DAYS } from "~/domain/reg-b-clock";
import { sqlList } from "~/server/db/columns.server";
import { requestItems } from "~/server/db/schema.server";

/**
 * The Reg B clock in SQL (definitions: ~/domain/reg-b-clock.ts), shared by the admin list's flag and
 * the reports page so both count the same applications. Correlated on loan_applications.id: use in a
 * query over loan_applications.
 */

// Written out with the table's name: in a select over loan_applications alone Drizzle leaves columns
// unqualified, and inside the subqueries an unqualified "id" would be request_items.id.
const APP_ID = sql.raw(`"loan_applications"."id"`);
const APP_SUBMITTED_AT = sql.raw(`"loan_applications"."submitted_at"`);
const APP_STATUS = sql.raw(`"loan_applications"."status"`);

/** When the application became complete (timestamptz), or null while something asked for is outstanding. */
export const completeSince: SQL<Date | null> = sql<Date | null>`(case when exists (
    select 1 from ${requestItems} ri where ri.application_id = ${APP_ID} and ri.status in ('requested', 'rejected')
  ) then null else greatest(${APP_SUBMITTED_AT}, (
    select max(ri.answered_at) from ${requestItems} ri where ri.application_id = ${APP_ID}
  )) end)`;

/** Undecided and complete for REG_B_FLAG_DAYS or more at `now`. */
export function regBFlagged(now: Date = new Date()): SQL<boolean> {
  return sql<boolean>`(${APP_STATUS} in ${sqlList(OPEN_REVIEW_STATUSES)} and ${completeSince} <= ${now.toISOString()}::timestamptz - make_interval(days => ${REG_B_FLAG_DAYS}))`;
}
