import { and, eq } from "drizzle-orm";
import type { Caller } from "~/server/platform/audit/audit.server";
import { auditDocumentLink, plain, sendStoredDocument } from "~/server/applications/documents.server";
import { signDocumentLink, verifyDocumentLink, type LinkOptions } from "~/server/applications/signed-links.server";
import { getDb, type Db } from "~/server/platform/db/client.server";
import { loanDocuments } from "~/server/platform/db/schema.server";
import { THROTTLES, throttleRefusal } from "~/server/platform/security/throttle.server";
import type { DocumentStorage } from "~/server/platform/storage/storage.server";
import type { OwnDocumentLink } from "~/domain/views/dashboard";
import { UUID_PATTERN } from "~/domain/ids";

/**
 * An applicant's own documents, from the dashboard's details dialog: the same
 * 60-second signed links as the admin viewer, signed for "applicant:<user id>" and served on their own
 * path, so an admin's link never opens here and an applicant's never opens the admin route. Every
 * lookup is by document id AND the signed-in user's id: another user's document is 404, exactly like
 * one that does not exist.
 */

export const OWN_DOCUMENT_FILE_PATH = "/dashboard/documents/file";

const reader = (userId: string) => `applicant:${userId}`;

async function findOwnDocument(db: Db, documentId: string, userId: string) {
  const [row] = await db
    .select({
      id: loanDocuments.id,
      userId: loanDocuments.userId,
      filePath: loanDocuments.filePath,
      fileName: loanDocuments.fileName,
      mimeType: loanDocuments.mimeType,
      documentType: loanDocuments.documentType,
    })
    .from(loanDocuments)
    .where(and(eq(loanDocuments.id, documentId), eq(loanDocuments.userId, userId)))
    .limit(1);
  return row;
}

export type OwnDocumentLinkResult =
  | { ok: true; link: OwnDocumentLink }
  | { ok: false; status: 400 | 404 | 429; message: string; headers?: Record<string, string> };

/** A download link for the signed-in applicant to one of their documents. Writes 'document.link'. */
export async function createOwnDocumentLink(documentId: unknown, caller: Caller, options: LinkOptions & { db?: Db } = {}): Promise<OwnDocumentLinkResult> {
  const user = caller.actor;
  const db = options.db ?? getDb();
  const throttled = await throttleRefusal([[`document-link:applicant:${user.id}`, THROTTLES.documentLinkPerApplicant]], (m) => m, { db });
  if (throttled) return { ok: false, status: 429, message: throttled.body, headers: throttled.headers };
  if (typeof documentId !== "string" || !UUID_PATTERN.test(documentId)) return { ok: false, status: 400, message: "Invalid document request." };
  const row = await findOwnDocument(db, documentId.toLowerCase(), user.id);
  if (!row) return { ok: false, status: 404, message: "That document could not be found." };
  const link = signDocumentLink({ documentId: row.id, disposition: "attachment", adminUserId: reader(user.id), path: OWN_DOCUMENT_FILE_PATH }, options);
  await auditDocumentLink(db, caller, row, link, { reader: "applicant" });
  return { ok: true, link: { url: link.url, documentId: row.id, fileName: row.fileName, expiresAt: link.expiresAt } };
}

/** GET /dashboard/documents/file for the signed-in applicant: 403 for a bad link, 404 for another's document. */
export async function serveOwnDocument(
  url: URL, caller: Caller, options: LinkOptions & { db?: Db; storage?: DocumentStorage; method?: string } = {},
): Promise<Response> {
  const user = caller.actor;
  const check = verifyDocumentLink(url.searchParams, reader(user.id), options);
  if (!check.ok) return plain(403, check.reason === "expired" ? "This link has expired. Open the document again for a new one." : "This link is not valid.");
  const db = options.db ?? getDb();
  const row = await findOwnDocument(db, check.documentId, user.id);
  if (!row) return plain(404, "That document could not be found.");
  return sendStoredDocument(row, check.disposition, caller, { ...options, db });
}
