import { and, asc, desc, eq, inArray, isNotNull } from "drizzle-orm";
import { isOneOf, REQUEST_ITEM_STATUSES } from "~/domain/enums";
import { requestItemKindLabel, requestItemStatusLabel } from "~/domain/labels";
import type { RequestItemView } from "~/domain/views/application-page";
import { getDb, type DbOrTx } from "~/server/db/client.server";
import { loanDocuments, requestItems } from "~/server/db/schema.server";

/**
 * What We Need (issue 19): the items staff asked for on an application, and the answers. Reads here;
 * the changes (Request Documents, Upload, Reply, Accept, Reject) are added beside them. The caller has
 * already checked that the viewer may see this application.
 */

/** Today's date in UTC as 'yyyy-MM-dd' (due dates are calendar dates; a date passes at its end in UTC). */
export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

export async function listRequestItems(applicationId: string, db: DbOrTx = getDb(), now: Date = new Date()): Promise<RequestItemView[]> {
  const items = await db
    .select()
    .from(requestItems)
    .where(eq(requestItems.applicationId, applicationId))
    .orderBy(asc(requestItems.createdAt), asc(requestItems.id));
  if (items.length === 0) return [];
  const documents = await db
    .select({
      id: loanDocuments.id,
      requestItemId: loanDocuments.requestItemId,
      fileName: loanDocuments.fileName,
      fileSize: loanDocuments.fileSize,
      uploadedAt: loanDocuments.uploadedAt,
    })
    .from(loanDocuments)
    .where(and(isNotNull(loanDocuments.requestItemId), inArray(loanDocuments.requestItemId, items.map((i) => i.id))))
    .orderBy(desc(loanDocuments.uploadedAt));
  const today = todayUtc(now);
  return items.map((item) => ({
    id: item.id,
    requestId: item.requestId,
    kind: item.kind,
    kindLabel: requestItemKindLabel(item.kind),
    note: item.note,
    dueDate: item.dueDate,
    status: isOneOf(REQUEST_ITEM_STATUSES, item.status) ? item.status : "requested",
    statusLabel: requestItemStatusLabel(item.status),
    replyText: item.replyText,
    rejectionReason: item.rejectionReason,
    documents: documents
      .filter((d) => d.requestItemId === item.id)
      .map((d) => ({ id: d.id, fileName: d.fileName, fileSize: d.fileSize, uploadedAt: d.uploadedAt.toISOString() })),
    createdAt: item.createdAt.toISOString(),
    overdue: (item.status === "requested" || item.status === "rejected") && item.dueDate < today,
  }));
}
