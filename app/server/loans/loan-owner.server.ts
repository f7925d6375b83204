import { eq } from "drizzle-orm";
import type { DbOrTx } from "~/server/platform/db/client.server";
import { loanApplications, user as userTable } from "~/server/platform/db/schema.server";
import type { LoanRow } from "./ledger.server";

/** Where a loan's e-mails go and what they call the loan: the borrower's address and the loan type. */
export async function loanOwner(tx: DbOrTx, loan: Pick<LoanRow, "userId" | "applicationId">): Promise<{ email: string; loanType: string } | null> {
  const [owner] = await tx
    .select({ email: userTable.email, loanType: loanApplications.loanType })
    .from(userTable)
    .innerJoin(loanApplications, eq(loanApplications.id, loan.applicationId))
    .where(eq(userTable.id, loan.userId))
    .limit(1);
  return owner ?? null;
}
