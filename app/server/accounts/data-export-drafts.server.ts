import { asc, eq } from "drizzle-orm";
import { SENSITIVE_DRAFT_FIELDS } from "~/domain/validation/application-draft";
import { STEP_SCHEMAS } from "~/domain/validation/application";
import { decryptSensitive } from "~/server/applications/drafts.server";
import type { DbOrTx } from "~/server/platform/db/client.server";
import { applicationDrafts, draftDocuments } from "~/server/platform/db/schema.server";
import { maskAccountNumber, maskLast4, maskSsn } from "./data-export-format.server";

/**
 * The saved application drafts in Download My Data (drafts.json and drafts/<loan type>/...): every
 * draft still held, expired or not (the retention job has not removed it yet, so we still keep it),
 * with the fields as saved, the step reached, its dates and its files. The SSN and bank numbers are
 * masked to their last 4 as the submitted applications' are in applications.json.
 */

const SENSITIVE = new Set<string>(SENSITIVE_DRAFT_FIELDS);

/** A person's drafts and their documents (each document with its draft's loan type, for its folder in the ZIP). Two short statements. */
export async function readDraftsForExport(db: DbOrTx, userId: string) {
  const drafts = await db.select().from(applicationDrafts).where(eq(applicationDrafts.userId, userId)).orderBy(asc(applicationDrafts.createdAt));
  if (drafts.length === 0) return { drafts, documents: [] };
  const loanTypes = new Map(drafts.map((d) => [d.id, d.loanType]));
  const docs = await db.select().from(draftDocuments).where(eq(draftDocuments.userId, userId)).orderBy(asc(draftDocuments.createdAt));
  // In draft order, so the files' places in the ZIP follow the drafts as drafts.json lists them.
  const documents = drafts.flatMap((draft) => docs.filter((d) => d.draftId === draft.id).map((d) => ({ ...d, loanType: loanTypes.get(d.draftId)! })));
  return { drafts, documents };
}

/** drafts.json: `files` says where each document landed in the ZIP (null when its file was missing). */
export function draftsForExport(read: Awaited<ReturnType<typeof readDraftsForExport>>, files: Map<string, string | null>) {
  return read.drafts.map((draft) => {
    const sensitive = decryptSensitive(draft.sensitiveEncrypted);
    // The sensitive values are stored apart, encrypted; a plain copy is never expected, and never exported.
    const fields = Object.fromEntries(Object.entries(draft.data).filter(([name]) => !SENSITIVE.has(name)));
    return {
      loanType: draft.loanType,
      stepReached: draft.step,
      stepTitle: STEP_SCHEMAS.find((s) => s.step === draft.step)?.title ?? null,
      startedAt: draft.createdAt.toISOString(),
      savedAt: draft.updatedAt.toISOString(),
      expiresAt: draft.expiresAt.toISOString(),
      fields,
      ssn: maskSsn(sensitive.ssn ?? null),
      bankAccount: { accountNumber: maskAccountNumber(sensitive.accountNumber ?? null), routingNumber: maskLast4(sensitive.routingNumber ?? null) },
      documents: read.documents
        .filter((d) => d.draftId === draft.id)
        .map((d) => ({ type: d.documentType, fileName: d.fileName, mimeType: d.mimeType, bytes: d.fileSize, uploadedAt: d.createdAt.toISOString(), file: files.get(d.id) ?? null })),
    };
  });
}
