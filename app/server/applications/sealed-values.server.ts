import { eq } from "drizzle-orm";
import type { RevealRequest } from "~/domain/reveal";
import { ENCRYPTION_PURPOSES } from "~/server/platform/crypto/encryption-purposes.server";
import { getDb, type DbOrTx } from "~/server/platform/db/client.server";
import { bankAccounts, loanApplications } from "~/server/platform/db/schema.server";

/**
 * One encrypted value an admin asked to reveal (staff/reveal decrypts and audits): an application's SSN
 * or a bank account's account or routing number, as stored, with its owner and the purpose it was
 * encrypted under. Null when the record does not exist; `stored` null when it holds no value.
 */
export type SealedValue = { table: "loan_applications" | "bank_accounts"; stored: string | null; clientId: string; purpose: string };

export async function sealedValue(request: RevealRequest, db: DbOrTx = getDb()): Promise<SealedValue | null> {
  if (request.kind === "ssn") {
    const [row] = await db
      .select({ stored: loanApplications.ssnEncrypted, clientId: loanApplications.userId })
      .from(loanApplications)
      .where(eq(loanApplications.id, request.id))
      .limit(1);
    return row ? { table: "loan_applications", stored: row.stored, clientId: row.clientId, purpose: ENCRYPTION_PURPOSES.ssn } : null;
  }
  const column = request.kind === "account_number" ? bankAccounts.accountNumber : bankAccounts.routingNumber;
  const [row] = await db
    .select({ stored: column, clientId: bankAccounts.userId })
    .from(bankAccounts)
    .where(eq(bankAccounts.id, request.id))
    .limit(1);
  const purpose = request.kind === "account_number" ? ENCRYPTION_PURPOSES.accountNumber : ENCRYPTION_PURPOSES.routingNumber;
  return row ? { table: "bank_accounts", stored: row.stored, clientId: row.clientId, purpose } : null;
}
