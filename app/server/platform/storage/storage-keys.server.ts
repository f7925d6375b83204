import { randomBytes } from "node:crypto";
import type { Readable } from "node:stream";

/** The storage contract and the only shape of key it accepts (shared by every adapter). */

export const BUCKET = "loan-documents";

export interface DocumentStorage {
  readonly describe: string;
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /**
   * Writes a body of unknown length as it arrives, never holding it whole (local: a `*.part` file renamed
   * at the end; S3: a multipart upload, one part in memory at a time). The object appears only once the
   * whole body is written; past `maxBytes`, or when the body throws, nothing is left under the key and
   * the promise rejects (StoredObjectTooLarge for the limit). Resolves to the bytes written.
   */
  putStream(key: string, body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, contentType: string, options?: PutStreamOptions): Promise<{ bytes: number }>;
  /** The stored bytes as a stream, or null when there is no such object. */
  get(key: string): Promise<{ body: Readable; size: number } | null>;
  /** Removes the object; a missing object is not an error. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** Every key under a prefix (for orphan sweeps and backups). */
  list(prefix?: string): Promise<string[]>;
  /** Every object under a prefix with its last modification time, sorted by key (for the orphan sweep). */
  listObjects(prefix?: string): Promise<StoredObjectInfo[]>;
  /**
   * Removes what interrupted writes left behind that is older than `before` (local `*.part` files;
   * an S3 PUT is atomic, so there it finds nothing). Resolves to how many were removed.
   */
  removeIncompleteWrites(before: Date): Promise<number>;
}

export type StoredObjectInfo = { key: string; modifiedAt: Date };

export type PutStreamOptions = { maxBytes?: number };

/** A streamed write went past its `maxBytes`: nothing was stored. */
export class StoredObjectTooLarge extends Error {
  constructor(
    readonly key: string,
    readonly maxBytes: number,
  ) {
    super(`Refusing to store ${key}: it is larger than ${maxBytes} bytes`);
  }
}

/** Counts a body's bytes and throws StoredObjectTooLarge once they pass `maxBytes` (before the chunk that does is passed on). */
export async function* limitedBody(key: string, body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, maxBytes: number | undefined, counted: { bytes: number }): AsyncGenerator<Uint8Array> {
  for await (const chunk of body) {
    counted.bytes += chunk.byteLength;
    if (maxBytes !== undefined && counted.bytes > maxBytes) throw new StoredObjectTooLarge(key, maxBytes);
    yield chunk;
  }
}

const SEGMENT = /^[A-Za-z0-9_-]{1,100}$/;
const FILE = /^[a-z0-9_]{1,60}\.(pdf|jpg|png)$/;

/** Download My Data: exports/{exportId}/data_export.zip, the only place a ZIP may be stored. */
const EXPORT_FILE = /^[a-z0-9_]{1,60}\.zip$/;

export function assertSafeKey(key: string): void {
  const parts = key.split("/");
  const fileOk = parts[0] === "exports" ? EXPORT_FILE.test(parts[2] ?? "") : FILE.test(parts[2] ?? "");
  if (parts.length !== 3 || !SEGMENT.test(parts[0]!) || !SEGMENT.test(parts[1]!) || !fileOk) {
    throw new Error(`Refusing an unsafe storage key: ${JSON.stringify(key)}`);
  }
}

/**
 * A document kept with a wizard draft: `{userId}/draft-{loanType}/{type}_{random}.{ext}`. The
 * random part gives a replacement its own key, so the old file is removed only once its row is gone.
 * On submission the key moves to loan_documents unchanged (rows, not folders, say what a file is).
 */
export function draftDocumentKey(userId: string, loanType: string, name: string, ext: "pdf" | "jpg" | "png"): string {
  const key = `${userId}/draft-${loanType}/${name}_${randomBytes(6).toString("hex")}.${ext}`;
  assertSafeKey(key);
  return key;
}

export function documentKey(userId: string, applicationId: string, name: string, ext: "pdf" | "jpg" | "png"): string {
  const key = `${userId}/${applicationId}/${name}.${ext}`;
  assertSafeKey(key);
  return key;
}

