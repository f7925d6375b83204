import { PERMISSIONS } from "~/domain/staff-permissions";
import { personById } from "~/server/accounts/index.server";
import { getConfig } from "~/server/platform/config.server";
import type { DbOrTx } from "~/server/platform/db/client.server";
import { holdActiveStaff } from "~/server/staff/index.server";
import type { LoanRow } from "./ledger.server";

/**
 * Who is told of a new hardship request: the lender's desk (the address new applications go to), and
 * the loan's collector as well while they are active staff who work collections (a deactivated one,
 * or one moved off collections, is not written to). Each address once.
 */
export async function hardshipRequestRecipients(tx: DbOrTx, loan: Pick<LoanRow, "collectorId">): Promise<string[]> {
  const to = [getConfig().lenderNotifyEmail];
  if (loan.collectorId && (await holdActiveStaff(tx, loan.collectorId, PERMISSIONS["collections.work"]))) {
    const collector = await personById(loan.collectorId, tx);
    if (collector) to.push(collector.email);
  }
  return [...new Set(to.map((address) => address.toLowerCase()))];
}
