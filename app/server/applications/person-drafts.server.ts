import { asc, eq } from "drizzle-orm";
import type { DbOrTx } from "~/server/platform/db/client.server";
import { applicationDrafts, draftDocuments } from "~/server/platform/db/schema.server";

/** One person's saved drafts as a whole: what Download My Data copies and what Close My Account deletes. */

/** A person's drafts and their documents (each document with its draft's loan type, for its folder in the ZIP). Two short statements. */
export async function draftsWithDocuments(db: DbOrTx, userId: string) {
  const drafts = await db.select().from(applicationDrafts).where(eq(applicationDrafts.userId, userId)).orderBy(asc(applicationDrafts.createdAt));
  if (drafts.length === 0) return { drafts, documents: [] };
  const loanTypes = new Map(drafts.map((d) => [d.id, d.loanType]));
  const docs = await db.select().from(draftDocuments).where(eq(draftDocuments.userId, userId)).orderBy(asc(draftDocuments.createdAt));
  // In draft order, so the files' places in the ZIP follow the drafts as drafts.json lists them.
  const documents = drafts.flatMap((draft) => docs.filter((d) => d.draftId === draft.id).map((d) => ({ ...d, loanType: loanTypes.get(d.draftId)! })));
  return { drafts, documents };
}

/**
 * Deletes every draft of the person and its documents' rows (inside the caller's transaction); answers
 * how many drafts and the storage keys of their files, which the caller removes after the commit.
 */
export async function deleteDraftsOf(tx: DbOrTx, userId: string): Promise<{ drafts: number; files: string[] }> {
  const files = (await tx.delete(draftDocuments).where(eq(draftDocuments.userId, userId)).returning({ key: draftDocuments.storageKey })).map((r) => r.key);
  const drafts = (await tx.delete(applicationDrafts).where(eq(applicationDrafts.userId, userId)).returning({ id: applicationDrafts.id })).length;
  return { drafts, files };
}
