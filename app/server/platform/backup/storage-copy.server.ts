import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { DocumentStorage } from "~/server/platform/storage/storage-keys.server";
import { BackupError, sha256File, type BackupFile } from "./manifest.server";

/** Stored documents to and from a backup folder, with a SHA-256 per object. */

const CONTENT_TYPES: Record<string, string> = { pdf: "application/pdf", jpg: "image/jpeg", png: "image/png" };

/** Copies every object into `folder/<key>` (mode 0600); returns what was copied. */
export async function copyStorageToFolder(storage: DocumentStorage, folder: string): Promise<BackupFile[]> {
  const copied: BackupFile[] = [];
  for (const key of await storage.list()) {
    const object = await storage.get(key);
    if (!object) continue; // removed since list(): if a row of the snapshot names it, the manifest reports it missing
    const file = path.join(folder, ...key.split("/"));
    await fs.promises.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const hash = createHash("sha256");
    let size = 0;
    const tap = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    await pipeline(object.body, tap, fs.createWriteStream(file, { mode: 0o600, flags: "wx" }));
    copied.push({ path: key, size, sha256: hash.digest("hex") });
  }
  return copied;
}

/** Checks every file of the backup against its recorded size and SHA-256; throws naming the first bad one. */
export async function verifyFiles(folder: string, files: BackupFile[]): Promise<void> {
  for (const entry of files) {
    const file = path.join(folder, ...entry.path.split("/"));
    let actual: { size: number; sha256: string };
    try {
      actual = await sha256File(file);
    } catch (error) {
      throw new BackupError(`The backup is incomplete: ${file} cannot be read (${(error as Error).message})`);
    }
    if (actual.size !== entry.size || actual.sha256 !== entry.sha256) {
      throw new BackupError(`The backup is damaged: ${file} does not match its checksum in the manifest`);
    }
  }
}

/** Puts every object back, then reads each one back from the storage and compares its SHA-256. */
export async function restoreStorageFromFolder(storage: DocumentStorage, folder: string, objects: BackupFile[]): Promise<void> {
  for (const entry of objects) {
    const bytes = await fs.promises.readFile(path.join(folder, ...entry.path.split("/")));
    const ext = entry.path.slice(entry.path.lastIndexOf(".") + 1);
    await storage.put(entry.path, bytes, CONTENT_TYPES[ext] ?? "application/octet-stream");
  }
  for (const entry of objects) {
    const object = await storage.get(entry.path);
    if (!object) throw new BackupError(`After the restore, ${entry.path} is missing from ${storage.describe}`);
    const hash = createHash("sha256");
    for await (const chunk of object.body as AsyncIterable<Buffer>) hash.update(chunk);
    if (hash.digest("hex") !== entry.sha256) throw new BackupError(`After the restore, ${entry.path} in ${storage.describe} does not match its checksum`);
  }
}
