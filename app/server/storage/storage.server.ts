import fs from "node:fs";
import path from "node:path";
import { getConfig } from "~/server/config.server";
import { assertSafeKey, BUCKET, type DocumentStorage } from "./storage-keys.server";
import { createS3Storage } from "~/server/storage/s3-storage.server";

/**
 * Document storage, bucket 'loan-documents', keys `{userId}/{applicationId}/{name}.{ext}`.
 * A folder in DATA_DIR by default; S3-compatible storage when the S3_* variables are set.
 * Keys are always built by the server (see documentKey); this module still refuses anything that
 * could leave the bucket.
 */

export { assertSafeKey, BUCKET, documentKey, type DocumentStorage } from "./storage-keys.server";

export function createLocalStorage(root: string): DocumentStorage {
  const base = path.resolve(root, BUCKET);
  const resolve = (key: string) => {
    assertSafeKey(key);
    return path.join(base, ...key.split("/"));
  };
  return {
    describe: `local folder ${base}`,
    async put(key, bytes) {
      const file = resolve(key);
      await fs.promises.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      // Write then rename: a crash never leaves a half-written document under its real name.
      const temp = `${file}.${process.pid}.${Date.now()}.part`;
      await fs.promises.writeFile(temp, bytes, { mode: 0o600, flag: "wx" });
      await fs.promises.rename(temp, file);
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
      const keys: string[] = [];
      const walk = async (dir: string, rel: string[]) => {
        let entries: fs.Dirent[];
        try {
          entries = await fs.promises.readdir(dir, { withFileTypes: true });
        } catch {
          return;
        }
        for (const entry of entries) {
          if (entry.isDirectory()) await walk(path.join(dir, entry.name), [...rel, entry.name]);
          else if (!entry.name.endsWith(".part")) keys.push([...rel, entry.name].join("/"));
        }
      };
      await walk(base, []);
      return keys.filter((k) => k.startsWith(prefix)).sort();
    },
  };
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
