import { asc, desc, eq, or, sql } from "drizzle-orm";
import { getDb, type DbOrTx } from "~/server/platform/db/client.server";
import { bankAccounts, loanApplications, loanDocuments } from "~/server/platform/db/schema.server";
import { columnsOf } from "~/server/platform/db/select-columns.server";

/**
 * A client's applications, bank accounts and documents as the staff client view shows them. Sensitive
 * columns are never selected: bank numbers by their plaintext last-4 / last-2 columns, and an
 * application only says whether it has an SSN.
 */
export async function clientRecords(clientId: string, db: DbOrTx = getDb()) {
  const [latestContact] = await db
    .select(columnsOf(loanApplications, ["phone", "addressLine1", "addressLine2", "city", "state", "zipCode", "submittedAt"]))
    .from(loanApplications)
    .where(eq(loanApplications.userId, clientId))
    .orderBy(desc(loanApplications.submittedAt), asc(loanApplications.id))
    .limit(1);

  // The client's own accounts and any account linked to one of the client's applications (docs/requirements.md §8).
  const accounts = await db
    .select(
      columnsOf(bankAccounts, [
        "id", "applicationId", "bankName", "accountHolderName", "accountType",
        "isPrimary", "isVerified", "accountNumberLast4", "routingNumberLast2", "createdAt",
      ]),
    )
    .from(bankAccounts)
    .leftJoin(loanApplications, eq(loanApplications.id, bankAccounts.applicationId))
    .where(or(eq(bankAccounts.userId, clientId), eq(loanApplications.userId, clientId)))
    .orderBy(desc(bankAccounts.isPrimary), desc(bankAccounts.createdAt), asc(bankAccounts.id));

  const applications = await db
    .select({
      ...columnsOf(loanApplications, ["id", "loanType", "requestedAmountCents", "status", "submittedAt"]),
      hasSsn: sql<boolean>`(${loanApplications.ssnEncrypted} is not null and ${loanApplications.ssnEncrypted} <> '')`,
    })
    .from(loanApplications)
    .where(eq(loanApplications.userId, clientId))
    .orderBy(desc(loanApplications.submittedAt), asc(loanApplications.id));

  const documents = await db
    .select(columnsOf(loanDocuments, ["id", "applicationId", "fileName", "documentType", "fileSize", "mimeType", "uploadedAt"]))
    .from(loanDocuments)
    .where(eq(loanDocuments.userId, clientId))
    .orderBy(desc(loanDocuments.uploadedAt), asc(loanDocuments.documentType));

  return { latestContact, accounts, applications, documents };
}
