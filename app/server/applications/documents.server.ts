import { Readable } from "node:stream";
import { desc, eq, asc, inArray } from "drizzle-orm";
import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";
import { getDb, type Db } from "~/server/platform/db/client.server";
import { countRows, keysetPage } from "~/server/platform/db/paging.server";
import type { PageRequest } from "~/domain/paging";
import { keptCounts } from "~/server/platform/db/row-counts.server";
import { loanApplications, loanDocuments } from "~/server/platform/db/schema.server";
import { peopleByIds, personById } from "~/server/accounts/index.server";
import { THROTTLES, throttleRefusal } from "~/server/platform/security/throttle.server";
import { getStorage, type DocumentStorage } from "~/server/platform/storage/storage.server";
import type { AdminDocument, DocumentList } from "~/domain/views/admin-documents";
import { isLinkDisposition, signDocumentLink, verifyDocumentLink, type LinkDisposition, type LinkOptions, type SignedLink } from "./signed-links.server";
import { UUID_PATTERN } from "~/domain/ids";

/**
 * The admin document viewer (docs/requirements.md §3 /admin/documents, §7): every uploaded document, newest
 * first, with its applicant; 60-second signed links created on request ('document.link'), and the
 * file itself served to the admin the link was made for ('document.download'), never cached.
 */

export const DOCUMENTS_PAGE_SIZE = 25;

const documentColumns = {
  id: loanDocuments.id,
  applicationId: loanDocuments.applicationId,
  userId: loanDocuments.userId,
  firstName: loanApplications.firstName,
  lastName: loanApplications.lastName,
  applicationEmail: loanApplications.email,
  loanType: loanApplications.loanType,
  fileName: loanDocuments.fileName,
  filePath: loanDocuments.filePath,
  documentType: loanDocuments.documentType,
  fileSize: loanDocuments.fileSize,
  mimeType: loanDocuments.mimeType,
  uploadedAt: loanDocuments.uploadedAt,
};

type DocumentRow = {
  id: string;
  applicationId: string;
  userId: string;
  profileName: string | null;
  profileEmail: string | null;
  firstName: string;
  lastName: string;
  applicationEmail: string;
  loanType: string;
  fileName: string;
  filePath: string;
  documentType: string;
  fileSize: number;
  mimeType: string;
  uploadedAt: Date;
};

function toAdminDocument(row: DocumentRow): AdminDocument {
  return {
    id: row.id,
    applicationId: row.applicationId,
    userId: row.userId,
    applicantName: row.profileName ?? `${row.firstName} ${row.lastName}`,
    applicantEmail: row.profileEmail ?? row.applicationEmail,
    loanType: row.loanType,
    fileName: row.fileName,
    documentType: row.documentType,
    fileSize: row.fileSize,
    mimeType: row.mimeType,
    uploadedAt: row.uploadedAt.toISOString(),
  };
}

function documentsQuery(db: Db) {
  return db.select(documentColumns).from(loanDocuments).innerJoin(loanApplications, eq(loanApplications.id, loanDocuments.applicationId));
}

/** The documents with their uploaders' profile name and e-mail (null without a profile): one batched read. */
async function withProfiles(rows: Omit<DocumentRow, "profileName" | "profileEmail">[], db: Db): Promise<DocumentRow[]> {
  const people = await peopleByIds(rows.map((r) => r.userId), db);
  return rows.map((r) => ({ ...r, profileName: people.get(r.userId)?.profileName ?? null, profileEmail: people.get(r.userId)?.profileEmail ?? null }));
}

/** One page of documents, newest first, optionally of one client. Writes 'document.list'. */
export async function listDocuments(query: PageRequest & { clientId?: string | null }, { actor, request }: Caller, db: Db = getDb()): Promise<DocumentList> {
  const clientId = query.clientId ?? null;
  const where = clientId ? eq(loanDocuments.userId, clientId) : undefined;
  // All documents: the count kept by triggers (drizzle/0012); one client's: counted on their index.
  const total = clientId ? await countRows(db, loanDocuments, where) : (await keptCounts(db, ["loan_documents"] as const)).loan_documents;
  // The page's ids from loan_documents_list_order_idx alone, by keyset (decision 0050); only those rows are joined.
  const { ids, page, pageCount, cursors } = await keysetPage(
    db,
    {
      scope: clientId ? `documents:${clientId}` : "documents",
      table: loanDocuments,
      id: loanDocuments.id,
      keys: [
        { column: loanDocuments.uploadedAt, order: "desc", type: "timestamptz" },
        { column: loanDocuments.applicationId, order: "asc", type: "uuid" },
        { column: loanDocuments.documentType, order: "asc", type: "text" },
        { column: loanDocuments.id, order: "asc", type: "uuid" },
      ],
      where,
    },
    query,
    total,
    DOCUMENTS_PAGE_SIZE,
  );
  const order = [desc(loanDocuments.uploadedAt), asc(loanDocuments.applicationId), asc(loanDocuments.documentType), asc(loanDocuments.id)];
  const rows = ids.length === 0 ? [] : await withProfiles(await documentsQuery(db).where(inArray(loanDocuments.id, ids)).orderBy(...order), db);

  let client: DocumentList["client"] = null;
  if (clientId) {
    const fullName = (await personById(clientId, db))?.profileName;
    client = fullName != null ? { id: clientId, fullName } : { id: clientId, fullName: rows[0] ? toAdminDocument(rows[0]).applicantName : "Unknown client" };
  }

  await writeAudit(db, {
    actor,
    action: "document.list",
    table: "loan_documents",
    details: { page, count: rows.length, total, ...(clientId ? { clientId } : {}) },
    request,
  });
  return { page, pageCount, pageSize: DOCUMENTS_PAGE_SIZE, cursors, total, client, documents: rows.map(toAdminDocument) };
}

async function findDocument(db: Db, documentId: string): Promise<DocumentRow | undefined> {
  const [row] = await withProfiles(await documentsQuery(db).where(eq(loanDocuments.id, documentId)).limit(1), db);
  return row;
}

export type DocumentLinkResult =
  | { ok: true; link: SignedLink & { fileName: string; mimeType: string; documentType: string; applicantName: string } }
  | { ok: false; status: 400 | 404 | 429; title: string; message: string; headers?: Record<string, string> };


/** A fresh 60-second link for the caller to one document (THROTTLES.documentLinkPerAdmin). Writes 'document.link'. */
export async function createDocumentLink(
  input: { documentId: unknown; disposition: unknown }, caller: Caller, options: LinkOptions & { db?: Db } = {},
): Promise<DocumentLinkResult> {
  const db = options.db ?? getDb();
  const throttled = await throttleRefusal([[`document-link:admin:${caller.actor.id}`, THROTTLES.documentLinkPerAdmin]], (message) => message, { db });
  if (throttled) return { ok: false, status: 429, title: "Access Error", message: throttled.body, headers: throttled.headers };
  const { documentId, disposition } = input;
  if (typeof documentId !== "string" || !UUID_PATTERN.test(documentId) || !isLinkDisposition(disposition)) {
    return { ok: false, status: 400, title: "Access Error", message: "Invalid document request." };
  }
  const row = await findDocument(db, documentId);
  if (!row) return { ok: false, status: 404, title: "Access Error", message: "That document no longer exists." };
  const link = signDocumentLink({ documentId: row.id, disposition, adminUserId: caller.actor.id }, options);
  await auditDocumentLink(db, caller, row, link);
  const doc = toAdminDocument(row);
  return {
    ok: true,
    link: { ...link, fileName: doc.fileName, mimeType: doc.mimeType, documentType: doc.documentType, applicantName: doc.applicantName },
  };
}

/** Records a link handed out ('document.link'); `extra` says who it was for when not an admin. */
export function auditDocumentLink(
  db: Db, { actor, request }: Caller, row: { id: string; userId: string; documentType: string }, link: SignedLink, extra: Record<string, string> = {},
) {
  return writeAudit(db, {
    actor,
    action: "document.link",
    table: "loan_documents",
    recordId: row.id,
    details: { disposition: link.disposition, expiresAt: link.expiresAt, clientId: row.userId, documentType: row.documentType, ...extra },
    request,
  });
}

/** Only our own stored names reach the header; anything else is replaced, and the UTF-8 form is encoded. */
export function contentDisposition(disposition: LinkDisposition, fileName: string): string {
  const ascii = fileName.replace(/[^A-Za-z0-9._ -]/g, "_").slice(0, 150) || "document";
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/**
 * The headers of a served file. The file is shown inside our own page (an <img>, or an <iframe> for
 * PDFs), so this response replaces the page defaults `frame-ancestors 'none'` / `X-Frame-Options:
 * DENY` with same-origin framing (server/fetch-bridge.ts writes a route's headers over the defaults),
 * and replaces the page CSP with one that allows no script, no connection and no form, and sandboxes
 * the document (a unique origin without scripts), so it is inert even when the link is opened directly.
 * Chromium still renders PDFs under this policy (checked with /usr/bin/chromium 2026-11).
 */
export function documentFileHeaders(doc: { mimeType: string; fileName: string }, disposition: LinkDisposition, size: number): Headers {
  const csp = [
    "default-src 'none'",
    "img-src 'self'",
    "style-src 'unsafe-inline'",
    "sandbox",
    "frame-ancestors 'self'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
  return new Headers({
    "Content-Type": doc.mimeType,
    "Content-Length": String(size),
    "Content-Disposition": contentDisposition(disposition, doc.fileName),
    "Cache-Control": "no-store, private",
    Pragma: "no-cache",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": csp,
    "X-Frame-Options": "SAMEORIGIN",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Resource-Policy": "same-origin",
  });
}

export const plain = (status: number, message: string) =>
  new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

/**
 * GET /api/documents/file for the calling admin (the route has already required an admin session): verifies
 * the link, then streams the stored file. 403 for a malformed, altered, expired or someone else's
 * link; 404 when the document or its file is gone. Writes 'document.download' for each file served.
 */
export async function serveSignedDocument(
  url: URL, caller: Caller, options: LinkOptions & { db?: Db; storage?: DocumentStorage; method?: string } = {},
): Promise<Response> {
  const check = verifyDocumentLink(url.searchParams, caller.actor.id, options);
  if (!check.ok) return plain(403, check.reason === "expired" ? "This link has expired. Generate a new one." : "This link is not valid.");
  const db = options.db ?? getDb();
  const row = await findDocument(db, check.documentId);
  if (!row) return plain(404, "That document no longer exists.");
  return sendStoredDocument(row, check.disposition, caller, { ...options, db });
}

/**
 * Streams a document's stored file once its link has been checked, writing 'document.download' for
 * the reader (an admin here, the applicant in server/applications/own-documents.server.ts).
 */
export async function sendStoredDocument(
  row: { id: string; userId: string; filePath: string; fileName: string; mimeType: string; documentType: string },
  disposition: LinkDisposition,
  reader: Caller,
  options: { db: Db; storage?: DocumentStorage; method?: string },
): Promise<Response> {
  const { db } = options;
  const stored = await (options.storage ?? getStorage()).get(row.filePath);
  if (!stored) return plain(404, "The file of this document is missing.");
  try {
    await writeAudit(db, {
      actor: reader.actor,
      action: "document.download",
      table: "loan_documents",
      recordId: row.id,
      details: { disposition, bytes: stored.size, clientId: row.userId, documentType: row.documentType },
      request: reader.request,
    });
  } catch (error) {
    stored.body.destroy();
    throw error;
  }
  const headers = documentFileHeaders(row, disposition, stored.size);
  if (options.method === "HEAD") {
    stored.body.destroy();
    return new Response(null, { status: 200, headers });
  }
  return new Response(Readable.toWeb(stored.body) as ReadableStream<Uint8Array>, { status: 200, headers });
}
