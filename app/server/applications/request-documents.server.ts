import { and, desc, inArray, isNotNull } from "drizzle-orm";
import type { RequestItemKind } from "~/domain/conversation-enums";
import { getDb, type DbOrTx } from "~/server/platform/db/client.server";
import { loanDocuments } from "~/server/platform/db/schema.server";

/**
 * The documents that answer What We Need items: listed in loan_documents with the item's id, so the
 * Document Viewer and the applicant's signed links show them beside the wizard's.
 */

/** The files of these request items, newest first, in one query. */
export async function documentsOfRequestItems(itemIds: readonly string[], db: DbOrTx = getDb()) {
  if (itemIds.length === 0) return [];
  const rows = await db
    .select({
      id: loanDocuments.id,
      requestItemId: loanDocuments.requestItemId,
      fileName: loanDocuments.fileName,
      fileSize: loanDocuments.fileSize,
      uploadedAt: loanDocuments.uploadedAt,
    })
    .from(loanDocuments)
    .where(and(isNotNull(loanDocuments.requestItemId), inArray(loanDocuments.requestItemId, [...itemIds])))
    .orderBy(desc(loanDocuments.uploadedAt), desc(loanDocuments.id));
  return rows as ((typeof rows)[number] & { requestItemId: string })[];
}

/** Lists an answer's stored file, inside the answer's transaction. */
export async function addRequestDocument(
  tx: DbOrTx,
  doc: {
    applicationId: string;
    userId: string;
    documentType: Exclude<RequestItemKind, "question">;
    fileName: string;
    filePath: string;
    fileSize: number;
    mimeType: (typeof loanDocuments.$inferInsert)["mimeType"];
    requestItemId: string;
  },
): Promise<{ id: string }> {
  const [row] = await tx.insert(loanDocuments).values(doc).returning({ id: loanDocuments.id });
  return row!;
}
