import { asc, eq } from "drizzle-orm";
import { SENSITIVE_DRAFT_FIELDS } from "~/domain/validation/application-draft";
import { STEP_SCHEMAS } from "~/domain/validation/application";
import { decryptSensitive } from "~/server/applications/drafts.server";
import type { DbOrTx } from "~/server/db/client.server";
import { applicationDrafts, draftDocuments } from "~/server/db/schema.server";
import { EXTENSION, maskAccountNumber, maskLast4, maskSsn } from "./data-export-format.server";

/**
 * The saved application drafts in Download My Data (drafts.json and drafts/<loan type>/...): every
 * draft still held, expired or not (the retention job has not removed it yet, so we still keep it),
 * with the fields as saved, the step reached, its dates and its files. The SSN and bank numbers are
 * masked to their last 4 as the submitted applications' are in applications.json.
 */

/** Puts a stored file in the ZIP (or records it missing): the name it got, or null. */
export type AddExportFile = (key: string, dir: string, base: string, ext: string) => Promise<string | null>;

const SENSITIVE = new Set<string>(SENSITIVE_DRAFT_FIELDS);

export async function collectDraftsForExport(db: DbOrTx, userId: string, addFile: AddExportFile) {
  const drafts = await db.select().from(applicationDrafts).where(eq(applicationDrafts.userId, userId)).orderBy(asc(applicationDrafts.createdAt));
  if (drafts.length === 0) return { drafts: [], documents: 0 };
  const docs = await db.select().from(draftDocuments).where(eq(draftDocuments.userId, userId)).orderBy(asc(draftDocuments.createdAt));

  const out = [];
  for (const draft of drafts) {
    const documents = [];
    for (const d of docs.filter((doc) => doc.draftId === draft.id)) {
      const file = await addFile(d.storageKey, `drafts/${draft.loanType}`, d.documentType.replace(/[^a-z0-9_]/g, "_"), EXTENSION[d.mimeType] ?? "bin");
      documents.push({ type: d.documentType, fileName: d.fileName, mimeType: d.mimeType, bytes: d.fileSize, uploadedAt: d.createdAt.toISOString(), file });
    }
    const sensitive = decryptSensitive(draft.sensitiveEncrypted);
    // The sensitive values are stored apart, encrypted; a plain copy is never expected, and never exported.
    const fields = Object.fromEntries(Object.entries(draft.data).filter(([name]) => !SENSITIVE.has(name)));
    out.push({
      loanType: draft.loanType,
      stepReached: draft.step,
      stepTitle: STEP_SCHEMAS.find((s) => s.step === draft.step)?.title ?? null,
      startedAt: draft.createdAt.toISOString(),
      savedAt: draft.updatedAt.toISOString(),
      expiresAt: draft.expiresAt.toISOString(),
      fields,
      ssn: maskSsn(sensitive.ssn ?? null),
      bankAccount: { accountNumber: maskAccountNumber(sensitive.accountNumber ?? null), routingNumber: maskLast4(sensitive.routingNumber ?? null) },
      documents,
    });
  }
  return { drafts: out, documents: docs.length };
}
