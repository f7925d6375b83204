import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";
import { getDb, type DbOrTx } from "~/server/platform/db/client.server";
import { loanDocuments } from "~/server/platform/db/schema.server";
import { AppError } from "~/server/platform/http/app-error.server";

/**
 * An application's identity documents as the funding checklist reads them: the ID card's front and
 * back uploaded with the application, or an ID document sent in answer to a staff request. Staff accept one
 * (Accept ID Document) once they checked it shows the borrower; the checklist's item is then met.
 */

export const ID_DOCUMENT_TYPES = ["id_card_front", "id_card_back", "id_document"] as const;

const ID_DOCUMENT_LABELS: Record<(typeof ID_DOCUMENT_TYPES)[number], string> = { id_card_front: "ID (front)", id_card_back: "ID (back)", id_document: "ID document (requested)" };

export const ID_DOCUMENT_MESSAGES = {
  notIdDocument: "This document is not an ID document of this loan's application.",
} as const;

export type IdDocument = { id: string; label: string; fileName: string; uploadedAt: string; acceptedAt: string | null; acceptedById: string | null };

/** The application's ID documents, oldest first. */
export async function idDocumentsOf(applicationId: string, db: DbOrTx = getDb()): Promise<IdDocument[]> {
  const rows = await db
    .select({
      id: loanDocuments.id,
      documentType: loanDocuments.documentType,
      fileName: loanDocuments.fileName,
      uploadedAt: loanDocuments.uploadedAt,
      acceptedAt: loanDocuments.acceptedAt,
      acceptedBy: loanDocuments.acceptedBy,
    })
    .from(loanDocuments)
    .where(and(eq(loanDocuments.applicationId, applicationId), inArray(loanDocuments.documentType, [...ID_DOCUMENT_TYPES])))
    .orderBy(asc(loanDocuments.uploadedAt), asc(loanDocuments.id));
  return rows.map((r) => ({
    id: r.id,
    label: ID_DOCUMENT_LABELS[r.documentType as (typeof ID_DOCUMENT_TYPES)[number]],
    fileName: r.fileName,
    uploadedAt: r.uploadedAt.toISOString(),
    acceptedAt: r.acceptedAt?.toISOString() ?? null,
    acceptedById: r.acceptedBy,
  }));
}

/**
 * Accept ID Document: staff mark an ID document of the application accepted, inside the caller's
 * transaction. One conditional UPDATE (an ID document of this application, not accepted yet), so two
 * staff at once accept it once; accepting it again answers as the first did. 409 when the document
 * is not an ID document of that application. Audited ('document.accept_id').
 */
export async function acceptIdDocument(applicationId: string, documentId: string, { actor, request }: Caller, tx: DbOrTx): Promise<{ acceptedAt: string }> {
  const ofApplication = and(eq(loanDocuments.id, documentId), eq(loanDocuments.applicationId, applicationId), inArray(loanDocuments.documentType, [...ID_DOCUMENT_TYPES]));
  const [accepted] = await tx
    .update(loanDocuments)
    .set({ acceptedAt: sql`now()`, acceptedBy: actor.id })
    .where(and(ofApplication, isNull(loanDocuments.acceptedAt)))
    .returning({ acceptedAt: loanDocuments.acceptedAt, documentType: loanDocuments.documentType });
  if (!accepted) {
    const [already] = await tx.select({ acceptedAt: loanDocuments.acceptedAt }).from(loanDocuments).where(ofApplication).limit(1);
    if (already?.acceptedAt) return { acceptedAt: already.acceptedAt.toISOString() };
    throw new AppError("funding", 409, ID_DOCUMENT_MESSAGES.notIdDocument);
  }
  await writeAudit(tx, { actor, action: "document.accept_id", table: "loan_documents", recordId: documentId, details: { applicationId, documentType: accepted.documentType }, request });
  return { acceptedAt: accepted.acceptedAt!.toISOString() };
}
