import { personById } from "~/server/accounts/index.server";
import { applicationById } from "~/server/applications/index.server";
import type { DbOrTx } from "~/server/platform/db/client.server";
import type { LoanRow } from "./ledger.server";

/** Where a loan's e-mails go and what they call the loan: the borrower's address and the loan type. */
export async function loanOwner(tx: DbOrTx, loan: Pick<LoanRow, "userId" | "applicationId">): Promise<{ email: string; loanType: string } | null> {
  const [app, borrower] = await Promise.all([applicationById(loan.applicationId, tx), personById(loan.userId, tx)]);
  return app && borrower ? { email: borrower.email, loanType: app.loanType } : null;
}
