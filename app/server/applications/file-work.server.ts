import { inspectUpload, UPLOAD_REASONS, type SniffedType } from "~/domain/upload-rules";
import type { DocumentStorage } from "~/server/platform/storage/storage-keys.server";
import { createLimit } from "./concurrency-limit.server";
import { fileProblem, type UploadedFile } from "./upload-parser.server";

/** The content checks and storage writes of received files, shared by the submission and the draft. */

/**
 * Checking or storing a file holds it in memory (and the content checks a text copy of it): a few at a
 * time across the process bound that memory however many submissions arrive together. The work is
 * short and paced by the server, never by a slow sender (the upload itself is already on disk).
 */
const fileWork = createLimit(3);

async function withFileBytes<T>(file: UploadedFile, use: (bytes: Buffer) => Promise<T> | T): Promise<T> {
  return fileWork(async () => use(await file.read()));
}

/** Checks one received file by its content (the wizard's rules); refused with the document named. */
export async function checkUploadedFile(file: UploadedFile, allowed: readonly SniffedType["mime"][]): Promise<SniffedType> {
  const verdict = await withFileBytes(file, (bytes) => inspectUpload({ filename: file.filename, declaredType: file.declaredType, bytes }, allowed));
  if (!verdict.ok) throw fileProblem(file.field, 400, UPLOAD_REASONS[verdict.reason]);
  return verdict.type;
}

/** Writes one received file to storage (a few at a time across the process). */
export function storeUploadedFile(storage: DocumentStorage, file: UploadedFile, key: string, mime: string): Promise<void> {
  return withFileBytes(file, (bytes) => storage.put(key, bytes, mime));
}

