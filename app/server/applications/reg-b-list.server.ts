import { asc, inArray } from "drizzle-orm";
import type { PageRequest } from "~/domain/paging";
import { REG_B_DUE_DAYS, daysBetween } from "~/domain/reg-b-clock";
import type { PipelineReport, RegBItem } from "~/domain/views/pipeline-report";
import { keysetPage, type KeysetList } from "~/server/platform/db/paging.server";
import type { Db } from "~/server/platform/db/client.server";
import { loanApplications } from "~/server/platform/db/schema.server";
import { completeSince, regBFlagged } from "./reg-b-clock.server";

/**
 * The reports page's Reg B list, a page at a time: at scale the 200 rows it once listed were most of
 * the page's HTML and render time. Keyset pages (decision 0050) over loan_applications_reg_b_idx
 * (complete_since, id), so Next, Previous and Last each read a page of index entries however long the
 * list is.
 */

export const REG_B_PAGE_SIZE = 25;

/** The cursor scope: another list's token (or one made for a different list) is refused, the first page shown. */
export const REG_B_LIST_SCOPE = "reports:reg-b";

/** Oldest first; the id breaks ties within a microsecond, so pages never overlap. */
export function regBList(now: Date): KeysetList {
  return {
    scope: REG_B_LIST_SCOPE,
    table: loanApplications,
    id: loanApplications.id,
    keys: [
      { column: completeSince, order: "asc", type: "timestamptz" },
      { column: loanApplications.id, order: "asc", type: "uuid" },
    ],
    where: regBFlagged(now),
  };
}

/** A flagged application as the list shows it: when its notice is due and the days left (negative: overdue). */
export function regBItem(r: { id: string; firstName: string; lastName: string; loanType: RegBItem["loanType"]; completeSince: Date | string }, now: Date): RegBItem {
  const since = new Date(r.completeSince);
  return {
    id: r.id,
    applicantName: `${r.firstName} ${r.lastName}`,
    loanType: r.loanType,
    completeSince: since.toISOString(),
    decideBy: new Date(since.getTime() + REG_B_DUE_DAYS * 86_400_000).toISOString(),
    daysLeft: REG_B_DUE_DAYS - daysBetween(since, now),
  };
}

/**
 * The page of flagged applications `request` asks for; `total` is the kept count the page shows (the
 * rollups', so the page count and Last agree with the sentence above the list). The page's ids come off
 * the index alone; only those rows are then read, by primary key.
 */
export async function regBListPage(db: Db, request: PageRequest, total: number, now: Date): Promise<PipelineReport["regB"]> {
  // Tokens only: a page number would be an OFFSET (the URL cannot carry one, a caller should not either).
  const asked: PageRequest = { ...request, page: 1 };
  const { ids, page, pageCount, cursors } = await keysetPage(db, regBList(now), asked, total, REG_B_PAGE_SIZE);
  const rows =
    ids.length === 0
      ? []
      : await db
          .select({ id: loanApplications.id, firstName: loanApplications.firstName, lastName: loanApplications.lastName, loanType: loanApplications.loanType, completeSince })
          .from(loanApplications)
          .where(inArray(loanApplications.id, ids))
          .orderBy(asc(completeSince), asc(loanApplications.id));
  // A row decided or re-opened for a request between the two reads has no complete_since any more: left out.
  const items = rows.flatMap((r) => (r.completeSince === null ? [] : [regBItem({ ...r, completeSince: r.completeSince }, now)]));
  return { count: total, items, page, pageCount, cursors };
}
