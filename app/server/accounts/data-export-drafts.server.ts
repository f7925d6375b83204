import { SENSITIVE_DRAFT_FIELDS } from "~/domain/validation/application-draft";
import { STEP_SCHEMAS } from "~/domain/validation/application";
import { decryptSensitive, type draftsWithDocuments } from "~/server/applications/index.server";
import { maskAccountNumber, maskLast4, maskSsn } from "./data-export-format.server";

/**
 * The saved application drafts in Download My Data (drafts.json and drafts/<loan type>/...): every
 * draft still held, expired or not (the retention job has not removed it yet, so we still keep it),
 * with the fields as saved, the step reached, its dates and its files. The SSN and bank numbers are
 * masked to their last 4 as the submitted applications' are in applications.json.
 */

const SENSITIVE = new Set<string>(SENSITIVE_DRAFT_FIELDS);

/** drafts.json: `files` says where each document landed in the ZIP (null when its file was missing). */
export function draftsForExport(read: Awaited<ReturnType<typeof draftsWithDocuments>>, files: Map<string, string | null>) {
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
