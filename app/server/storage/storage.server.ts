import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { getConfig } from "~/server/config.server";

/**
 * Document storage, bucket 'loan-documents', keys `{userId}/{applicationId}/{name}.{ext}`.
 * A folder in DATA_DIR by default; S3-compatible storage when the S3_* variables are set.
 * Keys are always built by the server (see documentKey); this module still refuses anything that
 * could leave the bucket.
 */

export const BUCKET = "loan-documents";

export interface DocumentStorage {
  readonly describe: string;
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The stored bytes as a stream, or null when there is no such object. */
  get(key: string): Promise<{ body: Readable; size: number } | null>;
  /** Removes the object; a missing object is not an error. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** Every key under a prefix (for orphan sweeps and backups). */
  list(prefix?: string): Promise<string[]>;
}

const SEGMENT = /^[A-Za-z0-9_-]{1,100}$/;
const FILE = /^[a-z0-9_]{1,60}\.(pdf|jpg|png)$/;

export function assertSafeKey(key: string): void {
  const parts = key.split("/");
  if (parts.length !== 3 || !SEGMENT.test(parts[0]!) || !SEGMENT.test(parts[1]!) || !FILE.test(parts[2]!)) {
    throw new Error(`Refusing an unsafe storage key: ${JSON.stringify(key)}`);
  }
}

export function documentKey(userId: string, applicationId: string, name: string, ext: "pdf" | "jpg" | "png"): string {
  const key = `${userId}/${applicationId}/${name}.${ext}`;
  assertSafeKey(key);
  return key;
}

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
  storage ??= createLocalStorage(path.join(getConfig().dataDir, "storage"));
  return storage;
}

/** Tests and the server entry may install another adapter (S3). */
export function setStorage(value: DocumentStorage | undefined): void {
  storage = value;
}
