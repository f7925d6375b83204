import { inArray } from "drizzle-orm";
import type { Db } from "~/server/platform/db/client.server";
import { dataExports, draftDocuments, loanDocuments, loanModifications, signedAgreements } from "~/server/platform/db/schema.server";

/**
 * Which of these storage keys a record still points at: the orphan sweep's question (platform/storage),
 * asked of every table that holds a stored file. It lives here, beside disposal, because both must know
 * every module's files: a new table that keeps a file is added to both.
 */
export async function referencedStorageKeys(keys: string[], db: Db): Promise<Set<string>> {
  const referenced = new Set<string>();
  const rows = await db.select({ filePath: loanDocuments.filePath }).from(loanDocuments).where(inArray(loanDocuments.filePath, keys));
  for (const row of rows) referenced.add(row.filePath);
  // The signed loan agreements.
  const agreements = await db.select({ key: signedAgreements.storageKey }).from(signedAgreements).where(inArray(signedAgreements.storageKey, keys));
  for (const row of agreements) referenced.add(row.key);
  // Download My Data files: the retention job removes them with their row once expired.
  const exportFiles = await db.select({ key: dataExports.storageKey }).from(dataExports).where(inArray(dataExports.storageKey, keys));
  for (const row of exportFiles) if (row.key) referenced.add(row.key);
  // Documents kept with a Save and Finish Later draft until it is submitted, discarded or expires.
  const draftFiles = await db.select({ key: draftDocuments.storageKey }).from(draftDocuments).where(inArray(draftDocuments.storageKey, keys));
  for (const row of draftFiles) referenced.add(row.key);
  // The signed loan modifications (hardship plans).
  const modifications = await db.select({ key: loanModifications.storageKey }).from(loanModifications).where(inArray(loanModifications.storageKey, keys));
  for (const row of modifications) if (row.key) referenced.add(row.key);
  return referenced;
}
