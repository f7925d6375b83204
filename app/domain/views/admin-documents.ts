import type { PageCursors } from "~/domain/paging";
/**
 * What the admin document viewer (/admin/documents) lists, as plain data: server/applications/documents.server.ts
 * returns these shapes and the page components render them (types only, so no component imports a server module).
 */

export type AdminDocument = {
  id: string;
  applicationId: string;
  userId: string;
  applicantName: string;
  applicantEmail: string;
  loanType: string;
  fileName: string;
  documentType: string;
  fileSize: number;
  mimeType: string;
  uploadedAt: string;
};

export type DocumentList = {
  page: number;
  pageCount: number;
  pageSize: number;
  /** Next/Previous tokens (decision 0050). */
  cursors: PageCursors;
  total: number;
  /** The ?client= filter, when one is applied. */
  client: { id: string; fullName: string } | null;
  documents: AdminDocument[];
};
