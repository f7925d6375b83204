import { and, eq, gt, inArray, lt, sql } from "drizzle-orm";
import type { LoanType } from "~/domain/enums";
import { DOCUMENT_FIELDS, STEP_SCHEMAS } from "~/domain/validation/application";
import { DRAFT_LIFETIME_DAYS, maskKeptValue, SENSITIVE_DRAFT_FIELDS, type SensitiveDraftField } from "~/domain/validation/application-draft";
import { DOCUMENT_MIME_TYPES, originalFileName } from "~/domain/upload-rules";
import type { DraftSummary, SavedDraft } from "~/domain/views/application-draft";
import { decryptField, encryptField } from "~/server/platform/crypto/field-encryption.server";
import type { Db, DbOrTx } from "~/server/platform/db/client.server";
import { applicationDrafts, draftDocuments } from "~/server/platform/db/schema.server";
import { draftDocumentKey, type DocumentStorage } from "~/server/platform/storage/storage.server";
import { checkUploadedFile, storeUploadedFile } from "./file-work.server";
import type { UploadedFile } from "./upload-parser.server";

/**
 * Save and Finish Later (decision 0039): one draft per applicant and loan type. The plain
 * fields go to `data`; the SSN and bank numbers are encrypted one by one (AES-256-GCM, each bound to
 * its own draft purpose) into a JSON object in `sensitive_encrypted`, so a save that leaves one out
 * keeps the stored one by a JSON merge inside the upsert, never by reading it first. Documents are
 * checked and stored as the submission's are, and kept in draft_documents.
 */

/** Associated data for draft ciphertexts: a draft's SSN does not decrypt as a submitted one, nor the reverse. */
const DRAFT_PURPOSES: Record<SensitiveDraftField, string> = {
  ssn: "application_drafts.ssn",
  accountNumber: "application_drafts.account_number",
  routingNumber: "application_drafts.routing_number",
};

export class DraftRefused extends Error {
  constructor(
    public readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "DraftRefused";
  }
}

const DAY_MS = 24 * 60 * 60_000;
export const draftExpiry = (now: Date) => new Date(now.getTime() + DRAFT_LIFETIME_DAYS * DAY_MS);

/** The ciphertexts (JSON text) of the sensitive values given; null when none is. */
export function encryptSensitive(values: Partial<Record<SensitiveDraftField, string>>): string | null {
  const out: Record<string, string> = {};
  for (const field of SENSITIVE_DRAFT_FIELDS) {
    const value = values[field];
    if (value) out[field] = encryptField(value, DRAFT_PURPOSES[field]);
  }
  return Object.keys(out).length > 0 ? JSON.stringify(out) : null;
}

/**
 * The kept sensitive values in clear (server only). One that no configured key opens (a retired key)
 * is treated as never given: the applicant types it again, which is safer than failing the draft.
 */
export function decryptSensitive(stored: string | null): Partial<Record<SensitiveDraftField, string>> {
  if (!stored) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored);
  } catch {
    return {};
  }
  const out: Partial<Record<SensitiveDraftField, string>> = {};
  if (typeof parsed !== "object" || parsed === null) return out;
  for (const field of SENSITIVE_DRAFT_FIELDS) {
    const cipher = (parsed as Record<string, unknown>)[field];
    if (typeof cipher !== "string") continue;
    try {
      out[field] = decryptField(cipher, DRAFT_PURPOSES[field]);
    } catch {
      // See above: re-entered by the applicant.
    }
  }
  return out;
}

const DOC_BY_FIELD = new Map<string, (typeof DOCUMENT_FIELDS)[number]>(DOCUMENT_FIELDS.map((d) => [d.field, d]));
const FIELD_BY_TYPE = new Map<string, string>(DOCUMENT_FIELDS.map((d) => [d.type, d.field]));

export type DraftInput = {
  loanType: LoanType;
  step: number;
  fromLoanType?: LoanType;
  /** Checked fields as typed (checkDraftFields); the sensitive ones among them are encrypted. */
  values: Record<string, string>;
  files: UploadedFile[];
};

type Row = typeof applicationDrafts.$inferSelect;
type DocRow = typeof draftDocuments.$inferSelect;

function toView(row: Row, docs: DocRow[]): SavedDraft {
  const kept: SavedDraft["kept"] = {};
  for (const [field, value] of Object.entries(decryptSensitive(row.sensitiveEncrypted)) as [SensitiveDraftField, string][]) {
    kept[field] = maskKeptValue(field, value);
  }
  return {
    loanType: row.loanType,
    step: row.step,
    values: row.data,
    kept,
    files: docs.flatMap((d) => {
      const field = FIELD_BY_TYPE.get(d.documentType);
      return field ? [{ field, name: d.fileName, size: d.fileSize }] : [];
    }),
    updatedAt: row.updatedAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}

/** The applicant's unexpired drafts, with what the wizard resumes from (never a sensitive value in clear). */
export async function listDrafts(db: DbOrTx, userId: string, now: Date = new Date()): Promise<SavedDraft[]> {
  const rows = await db
    .select()
    .from(applicationDrafts)
    .where(and(eq(applicationDrafts.userId, userId), gt(applicationDrafts.expiresAt, now)))
    .orderBy(applicationDrafts.loanType);
  if (rows.length === 0) return [];
  const docs = await db
    .select()
    .from(draftDocuments)
    .where(and(eq(draftDocuments.userId, userId), inArray(draftDocuments.draftId, rows.map((r) => r.id))));
  return rows.map((row) => toView(row, docs.filter((d) => d.draftId === row.id)));
}

/** The dashboard's cards: which drafts, the step reached and when each expires. */
export async function draftSummaries(db: DbOrTx, userId: string, now: Date = new Date()): Promise<DraftSummary[]> {
  const rows = await db
    .select({ loanType: applicationDrafts.loanType, step: applicationDrafts.step, updatedAt: applicationDrafts.updatedAt, expiresAt: applicationDrafts.expiresAt })
    .from(applicationDrafts)
    .where(and(eq(applicationDrafts.userId, userId), gt(applicationDrafts.expiresAt, now)))
    .orderBy(applicationDrafts.updatedAt);
  return rows.map((r) => ({
    loanType: r.loanType,
    step: r.step,
    stepTitle: STEP_SCHEMAS.find((s) => s.step === r.step)?.title ?? "",
    updatedAt: r.updatedAt.toISOString(),
    expiresAt: r.expiresAt.toISOString(),
  }));
}

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * Saves the applicant's draft for one loan type: files checked and written first, then one
 * transaction (the upsert locks the draft row, so saves of one draft run one after another), then
 * the files it replaced are removed. A failed save removes what it wrote and changes nothing.
 */
export async function saveDraft(
  db: Db,
  storage: DocumentStorage,
  userId: string,
  input: DraftInput,
  now: Date = new Date(),
): Promise<SavedDraft> {
  const sensitive: Partial<Record<SensitiveDraftField, string>> = {};
  const plain: Record<string, string> = {};
  for (const [field, value] of Object.entries(input.values)) {
    if ((SENSITIVE_DRAFT_FIELDS as readonly string[]).includes(field)) sensitive[field as SensitiveDraftField] = value.replace(/\D/g, "");
    else plain[field] = value;
  }

  const files: { type: string; key: string; mime: string; size: number; fileName: string; source: UploadedFile }[] = [];
  for (const file of input.files) {
    const doc = DOC_BY_FIELD.get(file.field);
    if (!doc) throw new DraftRefused(400, `Unexpected file: ${file.field.slice(0, 64)}`);
    const type = await checkUploadedFile(file, DOCUMENT_MIME_TYPES);
    files.push({
      type: doc.type,
      key: draftDocumentKey(userId, input.loanType, doc.type, type.ext),
      mime: type.mime,
      size: file.size,
      fileName: originalFileName(file.filename, type.ext, `${doc.type}.${type.ext}`),
      source: file,
    });
  }

  const written: string[] = [];
  let replaced: string[];
  try {
    for (const file of files) {
      await storeUploadedFile(storage, file.source, file.key, file.mime);
      written.push(file.key);
    }
    replaced = await db.transaction(async (tx) => {
      const gone: string[] = [];
      if (input.fromLoanType && input.fromLoanType !== input.loanType) {
        // The applicant changed the loan type: the draft moves with the wizard, and a draft already
        // kept under the new type gives way to it (one draft per loan type).
        gone.push(...(await removeDraft(tx, userId, input.loanType)));
        await tx
          .update(applicationDrafts)
          .set({ loanType: input.loanType })
          .where(and(eq(applicationDrafts.userId, userId), eq(applicationDrafts.loanType, input.fromLoanType)));
      }
      // A closed account keeps no draft: an old tab's save after Close My Account stores nothing.
      const upserted = rowsOf<{ id: string }>(
        await tx.execute(sql`
          insert into application_drafts (user_id, loan_type, step, data, sensitive_encrypted, updated_at, expires_at)
          select ${userId}, ${input.loanType}, ${input.step}, ${JSON.stringify(plain)}::jsonb, ${encryptSensitive(sensitive)},
                 ${now.toISOString()}::timestamptz, ${draftExpiry(now).toISOString()}::timestamptz
          where not exists (select 1 from profiles where id = ${userId} and closed_at is not null)
          on conflict (user_id, loan_type) do update set
            step = excluded.step,
            data = excluded.data,
            sensitive_encrypted = case
              when excluded.sensitive_encrypted is null then application_drafts.sensitive_encrypted
              else (coalesce(application_drafts.sensitive_encrypted::jsonb, '{}'::jsonb) || excluded.sensitive_encrypted::jsonb)::text
            end,
            updated_at = excluded.updated_at,
            expires_at = excluded.expires_at
          returning id`),
      );
      const draftId = upserted[0]?.id;
      if (!draftId) throw new DraftRefused(403, "This account is closed.");
      for (const file of files) {
        // The draft row is locked by the upsert above: this read and the write after it cannot interleave with another save.
        const [old] = await tx
          .select({ key: draftDocuments.storageKey })
          .from(draftDocuments)
          .where(and(eq(draftDocuments.draftId, draftId), eq(draftDocuments.documentType, file.type as DocRow["documentType"])));
        const values = { storageKey: file.key, fileName: file.fileName, mimeType: file.mime, fileSize: file.size, createdAt: now };
        await tx
          .insert(draftDocuments)
          .values({ draftId, userId, documentType: file.type as DocRow["documentType"], ...values })
          .onConflictDoUpdate({ target: [draftDocuments.draftId, draftDocuments.documentType], set: values });
        if (old) gone.push(old.key);
      }
      return gone;
    });
  } catch (error) {
    await Promise.all(written.map((key) => storage.delete(key).catch(() => undefined)));
    throw error;
  }
  await removeFiles(storage, replaced);
  const saved = (await listDrafts(db, userId, now)).find((d) => d.loanType === input.loanType);
  if (!saved) throw new DraftRefused(409, "The draft was discarded while it was being saved.");
  return saved;
}

/** Deletes one draft's rows (documents first, for their keys) and answers its files' keys, to remove after the commit. */
async function removeDraft(tx: DbOrTx, userId: string, loanType: LoanType): Promise<string[]> {
  const keys = await deleteDraftDocuments(tx, userId, loanType);
  await tx.delete(applicationDrafts).where(and(eq(applicationDrafts.userId, userId), eq(applicationDrafts.loanType, loanType)));
  return keys;
}

async function removeFiles(storage: DocumentStorage, keys: string[]): Promise<number> {
  let removed = 0;
  for (const key of keys) {
    // A failure leaves a file no row points at: the orphan sweep removes it.
    await storage.delete(key).then(
      () => removed++,
      () => undefined,
    );
  }
  return removed;
}

/** Discard: the draft, its document rows and (after the commit) its files. False when there was none. */
export async function discardDraft(db: Db, storage: DocumentStorage, userId: string, loanType: LoanType): Promise<boolean> {
  const outcome = await db.transaction(async (tx) => {
    const keys = await deleteDraftDocuments(tx, userId, loanType);
    const gone = await tx
      .delete(applicationDrafts)
      .where(and(eq(applicationDrafts.userId, userId), eq(applicationDrafts.loanType, loanType)))
      .returning({ id: applicationDrafts.id });
    return { found: gone.length > 0, keys };
  });
  await removeFiles(storage, outcome.keys);
  return outcome.found;
}

async function deleteDraftDocuments(tx: DbOrTx, userId: string, loanType: LoanType): Promise<string[]> {
  const ids = tx
    .select({ id: applicationDrafts.id })
    .from(applicationDrafts)
    .where(and(eq(applicationDrafts.userId, userId), eq(applicationDrafts.loanType, loanType)));
  const rows = await tx
    .delete(draftDocuments)
    .where(and(eq(draftDocuments.userId, userId), inArray(draftDocuments.draftId, ids)))
    .returning({ key: draftDocuments.storageKey });
  return rows.map((r) => r.key);
}

/** The retention job's part (inside its transaction): expired drafts, and the keys of their files. */
export async function deleteExpiredDrafts(tx: DbOrTx, now: Date): Promise<{ drafts: number; files: string[] }> {
  const expired = tx.select({ id: applicationDrafts.id }).from(applicationDrafts).where(lt(applicationDrafts.expiresAt, now));
  const files = (await tx.delete(draftDocuments).where(inArray(draftDocuments.draftId, expired)).returning({ key: draftDocuments.storageKey })).map((r) => r.key);
  const drafts = (await tx.delete(applicationDrafts).where(lt(applicationDrafts.expiresAt, now)).returning({ id: applicationDrafts.id })).length;
  return { drafts, files };
}

export type DraftForSubmission = {
  id: string;
  sensitive: Partial<Record<SensitiveDraftField, string>>;
  documents: { type: string; key: string; mime: string; size: number; fileName: string }[];
};

/** The unexpired draft a submission of this loan type completes (read before the submission's transaction). */
export async function draftForSubmission(db: DbOrTx, userId: string, loanType: LoanType, now: Date = new Date()): Promise<DraftForSubmission | null> {
  const [row] = await db
    .select({ id: applicationDrafts.id, sensitive: applicationDrafts.sensitiveEncrypted })
    .from(applicationDrafts)
    .where(and(eq(applicationDrafts.userId, userId), eq(applicationDrafts.loanType, loanType), gt(applicationDrafts.expiresAt, now)))
    .limit(1);
  if (!row) return null;
  return { id: row.id, sensitive: decryptSensitive(row.sensitive), documents: await draftDocumentsOf(db, row.id, userId) };
}

async function draftDocumentsOf(db: DbOrTx, draftId: string, userId: string) {
  const docs = await db
    .select()
    .from(draftDocuments)
    .where(and(eq(draftDocuments.draftId, draftId), eq(draftDocuments.userId, userId)));
  return docs.map((d) => ({ type: d.documentType as string, key: d.storageKey, mime: d.mimeType, size: d.fileSize, fileName: d.fileName }));
}

/**
 * Inside the submission's transaction: locks the draft (a save of it waits for the commit), reads its
 * documents again as they are now, and deletes it. Null when it is gone (discarded meanwhile).
 */
export async function takeDraft(tx: DbOrTx, draftId: string, userId: string): Promise<DraftForSubmission["documents"] | null> {
  const locked = rowsOf<{ id: string }>(await tx.execute(sql`select id from application_drafts where id = ${draftId} and user_id = ${userId} for update`));
  if (locked.length === 0) return null;
  const documents = await draftDocumentsOf(tx, draftId, userId);
  await tx.delete(draftDocuments).where(eq(draftDocuments.draftId, draftId));
  await tx.delete(applicationDrafts).where(eq(applicationDrafts.id, draftId));
  return documents;
}
