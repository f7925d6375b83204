import { and, asc, eq, inArray, lt, or, sql } from "drizzle-orm";
import { randomBytes, randomUUID } from "node:crypto";
import { isOpenForReview } from "~/domain/application-lifecycle";
import { isOneOf } from "~/domain/enums";
import { CONVERSATION_LIMITS, REQUEST_ITEM_STATUSES, type RequestItemKind } from "~/domain/conversation-enums";
import { requestItemKindLabel, requestItemStatusLabel } from "~/domain/labels";
import { DOCUMENT_MIME_TYPES, inspectUpload, originalFileName, UPLOAD_REASONS } from "~/domain/upload-rules";
import { documentFileMessage } from "~/domain/validation/application";
import { isDocumentKind, type RequestDocumentsInput } from "~/domain/validation/requests";
import type { RequestItemView } from "~/domain/views/application-page";
import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";
import { getConfig } from "~/server/platform/config.server";
import { getDb, type Db, type DbOrTx } from "~/server/platform/db/client.server";
import { requestItems } from "~/server/platform/db/schema.server";
import { personById } from "~/server/accounts/index.server";
import { addRequestDocument, applicationById, applicationOpenSql, documentsOfRequestItems, lockApplication } from "~/server/applications/index.server";
import { enqueueEmail } from "~/server/platform/mail/outbox.server";
import { answerRejectedEmail, documentsRequestedEmail } from "~/server/conversation/request-emails.server";
import { documentKey, getStorage, type DocumentStorage } from "~/server/platform/storage/storage.server";
import { recordEvent } from "./timeline.server";
import { AppError } from "~/server/platform/http/app-error.server";
import { todayUtc } from "~/domain/dates";

/**
 * What We Need: the items staff asked for on an application, and the answers. Reads here;
 * the changes (Request Documents, Upload, Reply, Accept, Reject) are added beside them. The caller has
 * already checked that the viewer may see this application.
 */

export async function listRequestItems(applicationId: string, db: DbOrTx = getDb(), now: Date = new Date()): Promise<RequestItemView[]> {
  const items = await db
    .select()
    .from(requestItems)
    .where(eq(requestItems.applicationId, applicationId))
    .orderBy(asc(requestItems.createdAt), asc(requestItems.id));
  if (items.length === 0) return [];
  const documents = await documentsOfRequestItems(items.map((i) => i.id), db);
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
    // Newest first: the current answer's files are the item's file_count newest; the rest were rejected.
    documents: documents
      .filter((d) => d.requestItemId === item.id)
      .map((d, index) => ({
        id: d.id,
        fileName: d.fileName,
        fileSize: d.fileSize,
        uploadedAt: d.uploadedAt.toISOString(),
        current: index < item.fileCount,
      })),
    fileCount: item.fileCount,
    createdAt: item.createdAt.toISOString(),
    overdue: (item.status === "requested" || item.status === "rejected") && item.dueDate < today,
  }));
}

// ---------------------------------------------------------------------------------------------
// Changes. Each is one transaction: the change (a conditional statement, so two people acting at
// once cannot both win), its timeline event (which also refreshes the other side's open page) and,
// for staff, its audit row.
// ---------------------------------------------------------------------------------------------

export const REQUEST_REFUSALS = {
  applicationNotFound: "This application could not be found.",
  itemNotFound: "This item could not be found.",
  decided: "This application is no longer under review.",
  notAnswerable: "This item has already been answered. You can answer it again if it is rejected.",
  notReviewable: "Only an answer that is in review can be accepted or rejected.",
  wrongAnswerKind: "This item asks for a different kind of answer.",
  tooManyFiles: `This item already has ${CONVERSATION_LIMITS.filesPerItem} files, the most one answer can hold.`,
} as const;

const ANSWERABLE = ["requested", "rejected"] as const;
/** A document item takes files while it waits for an answer and while its answer is in review (up to the limit). */
const UPLOADABLE = [...ANSWERABLE, "received"] as const;


/**
 * Request Documents: staff ask for one or more items with one due date. The application row is locked
 * (FOR UPDATE) first, so a decision racing the request waits for it, or commits first and the request
 * is refused: never an open request on a decided application. The applicant's e-mail is the Reg B
 * notice of incompleteness (request-emails.server.ts).
 */
export async function createRequest(
  applicationId: string, input: Pick<RequestDocumentsInput, "items" | "dueDate">, { actor, request: info }: Caller, db: Db = getDb(),
): Promise<{ requestId: string; itemIds: string[] }> {
  return db.transaction(async (tx) => {
    const locked = await lockApplication(tx, applicationId);
    const owner = locked && (await personById(locked.userId, tx));
    const app = locked && owner ? { ...locked, accountEmail: owner.email } : null;
    if (!app) throw new AppError("request", 404, REQUEST_REFUSALS.applicationNotFound);
    if (!isOpenForReview(app.status)) throw new AppError("request", 409, REQUEST_REFUSALS.decided);
    const requestId = randomUUID();
    const rows = await tx
      .insert(requestItems)
      .values(
        input.items.map((item, i) => ({
          requestId,
          // One request's items share a transaction (one now()): a microsecond apart, they list in the order asked.
          createdAt: sql`now() + ${i} * interval '1 microsecond'`,
          applicationId,
          userId: app.userId,
          kind: item.kind,
          note: item.note,
          dueDate: input.dueDate,
          requestedBy: actor.id,
        })),
      )
      .returning({ id: requestItems.id });
    const labels = input.items.map((item) => requestItemKindLabel(item.kind));
    await recordEvent(tx, {
      applicationId,
      ownerId: app.userId,
      kind: "documents_requested",
      actorId: actor.id,
      actorSide: "staff",
      summary: `${labels.join(", ")} · due ${input.dueDate}`,
    });
    await writeAudit(tx, {
      actor,
      action: "request.create",
      table: "request_items",
      recordId: applicationId,
      details: { requestId, kinds: input.items.map((i) => i.kind), dueDate: input.dueDate },
      request: info,
    });
    await enqueueEmail(tx, {
      to: app.accountEmail,
      ...documentsRequestedEmail({
        applicantName: `${app.firstName} ${app.lastName}`,
        applicationId,
        kinds: input.items.map((item) => item.kind),
        dueDate: input.dueDate,
        baseUrl: getConfig().publicUrl,
      }),
    });
    return { requestId, itemIds: rows.map((r) => r.id) };
  });
}

/** The applicant's own item on their own application: anything else is not found (never "not yours"). */
async function ownItem(db: DbOrTx, applicationId: string, itemId: string, userId: string) {
  const [item] = await db
    .select({ id: requestItems.id, kind: requestItems.kind, status: requestItems.status, fileCount: requestItems.fileCount })
    .from(requestItems)
    .where(and(eq(requestItems.id, itemId), eq(requestItems.applicationId, applicationId), eq(requestItems.userId, userId)))
    .limit(1);
  if (!item) throw new AppError("request", 404, REQUEST_REFUSALS.itemNotFound);
  return item;
}

/** Why the conditional UPDATE changed nothing: the application was decided, or the item's state moved on. */
async function whyNotAnswered(db: DbOrTx, applicationId: string): Promise<AppError> {
  const app = await applicationById(applicationId, db);
  return new AppError("request", 409, app && !isOpenForReview(app.status) ? REQUEST_REFUSALS.decided : REQUEST_REFUSALS.notAnswerable);
}

export type AnswerFile = { filename: string; declaredType: string; bytes: Uint8Array };

/** Why an upload's conditional UPDATE changed nothing: decided, the item's answer is full, or it moved on. */
async function whyNoUpload(db: DbOrTx, applicationId: string, itemId: string): Promise<AppError> {
  const [item] = await db.select({ status: requestItems.status, fileCount: requestItems.fileCount }).from(requestItems).where(eq(requestItems.id, itemId)).limit(1);
  if (item?.status === "received" && item.fileCount >= CONVERSATION_LIMITS.filesPerItem) {
    const app = await applicationById(applicationId, db);
    if (app && isOpenForReview(app.status)) return new AppError("request", 409, REQUEST_REFUSALS.tooManyFiles);
  }
  return whyNotAnswered(db, applicationId);
}

/**
 * Upload: the applicant answers a document item with a file, checked by content exactly as the wizard's
 * documents are (upload-rules.ts), stored under their user and application like the wizard's, and
 * listed in loan_documents with the item's id (so the admin Document Viewer and the applicant's signed
 * links show it). An answer may hold up to CONVERSATION_LIMITS.filesPerItem files ("two most recent pay
 * stubs"): each upload is one conditional UPDATE (requested|rejected → received with one file, or one
 * more file on an answer in review while it has fewer than the limit), so parallel uploads can never
 * pass the limit (the CHECK on file_count is the last word); a refused upload's file is removed and it
 * is told why (409).
 */
export async function answerWithUpload(
  applicationId: string,
  itemId: string,
  file: AnswerFile,
  applicant: { id: string },
  options: { db?: Db; storage?: DocumentStorage } = {},
): Promise<{ documentId: string }> {
  const db = options.db ?? getDb();
  const storage = options.storage ?? getStorage();
  const item = await ownItem(db, applicationId, itemId, applicant.id);
  if (!isDocumentKind(item.kind)) throw new AppError("request", 400, REQUEST_REFUSALS.wrongAnswerKind);
  if (!isOneOf(UPLOADABLE, item.status) || item.fileCount >= CONVERSATION_LIMITS.filesPerItem) throw await whyNoUpload(db, applicationId, itemId);
  const label = requestItemKindLabel(item.kind);
  const verdict = inspectUpload(file, DOCUMENT_MIME_TYPES);
  if (!verdict.ok) throw new AppError("request", 400, documentFileMessage(label, UPLOAD_REASONS[verdict.reason]));
  // Our name, never the applicant's: a random suffix keeps every answer (a rejected one stays on file).
  const name = `${item.kind}_${randomBytes(6).toString("hex")}`;
  const key = documentKey(applicant.id, applicationId, name, verdict.type.ext);
  await storage.put(key, file.bytes, verdict.type.mime);
  try {
    return await db.transaction(async (tx) => {
      const max = CONVERSATION_LIMITS.filesPerItem;
      const updated = await tx
        .update(requestItems)
        .set({
          status: "received",
          // A first file starts a new answer; more files join the answer in review.
          fileCount: sql`case when ${requestItems.status} = 'received' then ${requestItems.fileCount} + 1 else 1 end`,
          // The answer arrived with its first file (the Reg B clock reads answered_at).
          answeredAt: sql`case when ${requestItems.status} = 'received' then ${requestItems.answeredAt} else now() end`,
          updatedAt: sql`now()`,
        })
        .where(
          and(
            eq(requestItems.id, itemId),
            or(inArray(requestItems.status, ANSWERABLE), and(eq(requestItems.status, "received"), lt(requestItems.fileCount, max))),
            applicationOpenSql(applicationId),
          ),
        )
        .returning({ id: requestItems.id, fileCount: requestItems.fileCount });
      const row = updated[0];
      if (!row) throw await whyNoUpload(tx, applicationId, itemId);
      const doc = await addRequestDocument(tx, {
        applicationId,
        userId: applicant.id,
        documentType: item.kind as Exclude<RequestItemKind, "question">,
        fileName: originalFileName(file.filename, verdict.type.ext, `${name}.${verdict.type.ext}`),
        filePath: key,
        fileSize: file.bytes.length,
        mimeType: verdict.type.mime,
        requestItemId: itemId,
      });
      await recordEvent(tx, {
        applicationId,
        ownerId: applicant.id,
        kind: "document_received",
        actorId: applicant.id,
        actorSide: "applicant",
        summary: row.fileCount > 1 ? `${label} (file ${row.fileCount} of at most ${max})` : label,
      });
      return { documentId: doc.id };
    });
  } catch (error) {
    await storage.delete(key).catch(() => undefined);
    throw error;
  }
}

/** Reply: the applicant answers a question item in words (requested|rejected → received). */
export async function answerWithReply(applicationId: string, itemId: string, reply: string, applicant: { id: string }, db: Db = getDb()): Promise<void> {
  const item = await ownItem(db, applicationId, itemId, applicant.id);
  if (isDocumentKind(item.kind)) throw new AppError("request", 400, REQUEST_REFUSALS.wrongAnswerKind);
  await db.transaction(async (tx) => {
    const updated = await tx
      .update(requestItems)
      .set({ status: "received", replyText: reply, answeredAt: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(requestItems.id, itemId), inArray(requestItems.status, ANSWERABLE), applicationOpenSql(applicationId)))
      .returning({ id: requestItems.id });
    if (updated.length === 0) throw await whyNotAnswered(tx, applicationId);
    await recordEvent(tx, { applicationId, ownerId: applicant.id, kind: "reply_received", actorId: applicant.id, actorSide: "applicant", summary: "Question" });
  });
}

/**
 * Accept or Reject: staff review an answer in review (received → accepted | rejected, one conditional
 * UPDATE). The reason of a rejection is shown to the applicant (on the item and in the timeline), who
 * can then answer again.
 */
export async function reviewItem(
  applicationId: string, itemId: string, decision: { accept: true } | { accept: false; reason: string }, { actor, request: info }: Caller, db: Db = getDb(),
): Promise<void> {
  await db.transaction(async (tx) => {
    const updated = await tx
      .update(requestItems)
      .set({
        status: decision.accept ? "accepted" : "rejected",
        rejectionReason: decision.accept ? null : decision.reason,
        // A rejected answer's files stay on file as an earlier answer; the next answer starts empty.
        ...(decision.accept ? {} : { fileCount: 0 }),
        reviewedAt: sql`now()`,
        reviewedBy: actor.id,
        updatedAt: sql`now()`,
      })
      .where(
        and(eq(requestItems.id, itemId), eq(requestItems.applicationId, applicationId), eq(requestItems.status, "received"), applicationOpenSql(applicationId)),
      )
      .returning({ id: requestItems.id, kind: requestItems.kind, userId: requestItems.userId, dueDate: requestItems.dueDate });
    const row = updated[0];
    if (!row) {
      const [exists] = await tx
        .select({ id: requestItems.id })
        .from(requestItems)
        .where(and(eq(requestItems.id, itemId), eq(requestItems.applicationId, applicationId)))
        .limit(1);
      if (!exists) throw new AppError("request", 404, REQUEST_REFUSALS.itemNotFound);
      const app = await applicationById(applicationId, tx);
      throw new AppError("request", 409, app && !isOpenForReview(app.status) ? REQUEST_REFUSALS.decided : REQUEST_REFUSALS.notReviewable);
    }
    const label = requestItemKindLabel(row.kind);
    await recordEvent(tx, {
      applicationId,
      ownerId: row.userId,
      kind: decision.accept ? "document_accepted" : "document_rejected",
      actorId: actor.id,
      actorSide: "staff",
      summary: decision.accept ? label : `${label}: ${decision.reason}`,
    });
    await writeAudit(tx, {
      actor,
      action: decision.accept ? "request.accept" : "request.reject",
      table: "request_items",
      recordId: itemId,
      details: decision.accept ? { applicationId } : { applicationId, reasonCharacters: decision.reason.length },
      request: info,
    });
    if (!decision.accept) {
      // The applicant hears of a rejection by e-mail too: which item, the staff's reason, what to do next.
      const applicant = await applicantOf(tx, applicationId);
      if (applicant) {
        await enqueueEmail(tx, {
          to: applicant.email,
          ...answerRejectedEmail({
            applicantName: applicant.name,
            kind: row.kind,
            reason: decision.reason,
            dueDate: row.dueDate,
            applicationId,
            baseUrl: getConfig().publicUrl,
            today: todayUtc(),
          }),
        });
      }
    }
  });
}

/** The applicant's name (on the application) and account e-mail, for the e-mails about their requests. */
async function applicantOf(db: DbOrTx, applicationId: string): Promise<{ name: string; email: string } | undefined> {
  const app = await applicationById(applicationId, db);
  const owner = app && (await personById(app.userId, db));
  return app && owner ? { name: `${app.firstName} ${app.lastName}`, email: owner.email } : undefined;
}
