import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { getConfig } from "~/server/platform/config.server";
import { assertSafeKey, BUCKET, limitedBody, type DocumentStorage, type StoredObjectInfo } from "./storage-keys.server";
import { createS3Storage } from "~/server/platform/storage/s3-storage.server";

/**
 * Document storage, bucket 'loan-documents', keys `{userId}/{applicationId}/{name}.{ext}`.
 * A folder in DATA_DIR by default; S3-compatible storage when the S3_* variables are set.
 * Keys are always built by the server (see documentKey); this module still refuses anything that
 * could leave the bucket.
 */

export {
  assertSafeKey,
  BUCKET,
  documentKey,
  draftDocumentKey,
  StoredObjectTooLarge,
  type DocumentStorage,
  type PutStreamOptions,
  type StoredObjectInfo,
} from "./storage-keys.server";

export function createLocalStorage(root: string): DocumentStorage {
  const base = path.resolve(root, BUCKET);
  const resolve = (key: string) => {
    assertSafeKey(key);
    return path.join(base, ...key.split("/"));
  };
  const adapter: DocumentStorage = {
    describe: `local folder ${base}`,
    async put(key, bytes) {
      const file = resolve(key);
      await fs.promises.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      // Write then rename: a crash never leaves a half-written document under its real name.
      const temp = `${file}.${process.pid}.${Date.now()}.part`;
      await fs.promises.writeFile(temp, bytes, { mode: 0o600, flag: "wx" });
      await fs.promises.rename(temp, file);
    },
    async putStream(key, body, _contentType, options = {}) {
      const file = resolve(key);
      await fs.promises.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      // The same write-then-rename as put: the object exists only once every byte is on disk.
      const temp = `${file}.${process.pid}.${Date.now()}.part`;
      const counted = { bytes: 0 };
      try {
        await pipeline(limitedBody(key, body, options.maxBytes, counted), fs.createWriteStream(temp, { mode: 0o600, flags: "wx" }));
        await fs.promises.rename(temp, file);
      } catch (error) {
        await fs.promises.rm(temp, { force: true });
        await fs.promises.rmdir(path.dirname(file)).catch(() => undefined);
        throw error;
      }
      return { bytes: counted.bytes };
    },
    async get(key) {
      const file = resolve(key);
      try {
        const stat = await fs.promises.stat(file);
        return { body: fs.createReadStream(file), size: stat.size };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    async delete(key) {
      const file = resolve(key);
      await fs.promises.rm(file, { force: true });
      // Tidy the now-empty application folder; ignore "not empty".
      await fs.promises.rmdir(path.dirname(file)).catch(() => undefined);
    },
    async exists(key) {
      return fs.promises.access(resolve(key)).then(
        () => true,
        () => false,
      );
    },
    async list(prefix = "") {
      return (await walk()).objects.filter((o) => o.key.startsWith(prefix)).map((o) => o.key);
    },
    async listObjects(prefix = "") {
      return (await walk()).objects.filter((o) => o.key.startsWith(prefix));
    },
    async removeIncompleteWrites(before) {
      let removed = 0;
      for (const part of (await walk()).partials) {
        if (part.modifiedAt >= before) continue;
        await fs.promises.rm(part.file, { force: true });
        await fs.promises.rmdir(path.dirname(part.file)).catch(() => undefined);
        removed++;
      }
      return removed;
    },
  };
  return adapter;

  /** Every stored object, and separately the `*.part` files of writes that never reached their rename. */
  async function walk() {
    const objects: StoredObjectInfo[] = [];
    const partials: { file: string; modifiedAt: Date }[] = [];
    const visit = async (dir: string, rel: string[]) => {
      let entries: fs.Dirent[];
      try {
        entries = await fs.promises.readdir(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          await visit(file, [...rel, entry.name]);
          continue;
        }
        // A file may vanish between readdir and stat (a concurrent delete): it is simply not listed.
        const stat = await fs.promises.stat(file).catch(() => undefined);
        if (!stat?.isFile()) continue;
        if (entry.name.endsWith(".part")) partials.push({ file, modifiedAt: stat.mtime });
        else objects.push({ key: [...rel, entry.name].join("/"), modifiedAt: stat.mtime });
      }
    };
    await visit(base, []);
    objects.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return { objects, partials };
  }
}

let storage: DocumentStorage | undefined;

export function getStorage(): DocumentStorage {
  if (!storage) {
    const config = getConfig();
    storage = config.s3 ? createS3Storage(config.s3) : createLocalStorage(path.join(config.dataDir, "storage"));
  }
  return storage;
}

/** Tests and the server entry may install another adapter (S3). */
export function setStorage(value: DocumentStorage | undefined): void {
  storage = value;
}
