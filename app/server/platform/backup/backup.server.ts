import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { drizzle } from "drizzle-orm/node-postgres";
import { openDatabase } from "~/server/platform/db/client.server";
import type { DocumentStorage } from "~/server/platform/storage/storage-keys.server";
import {
  appVersion,
  BackupError,
  describeDatabase,
  PGLITE_DUMP_FILE,
  POSTGRES_DUMP_FILE,
  sha256File,
  STORAGE_FOLDER,
  writeManifest,
  type Manifest,
} from "./manifest.server";
import { pgDump } from "./pg-tools.server";
import { copyStorageToFolder } from "./storage-copy.server";

/**
 * A backup folder: the database (pg_dump, or PGlite's data-folder tarball), every stored document
 * and manifest.json. Documents are copied after the database: a submission writes its files before
 * its rows, so every document row in the dump already has its file. Files that arrive later are
 * orphans after a restore (the orphan sweep removes them); a file deleted after the snapshot (the
 * disposal job) is listed under storage.missing in the manifest and reported.
 *
 * The backup holds the sensitive columns as ciphertext, never the keys: ENCRYPTION_KEY and
 * APP_SECRET are kept apart from it (docs/security.md), so a stolen backup alone reveals no SSN.
 */

export type BackupTarget = { databaseUrl: string } | { dataDir: string };

export type BackupOptions = {
  folder: string;
  target: BackupTarget;
  storage: DocumentStorage;
  /** Environment for pg_dump (PATH, PG* variables). */
  env?: NodeJS.ProcessEnv;
  now?: () => Date;
};

function prepareFolder(folder: string): void {
  if (fs.existsSync(folder)) {
    if (!fs.statSync(folder).isDirectory()) throw new BackupError(`${folder} exists and is not a folder`);
    if (fs.readdirSync(folder).length > 0) throw new BackupError(`${folder} is not empty: give a new or empty folder for the backup`);
  }
  // Customer data: readable by the owner only.
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  fs.chmodSync(folder, 0o700);
}

async function backupPostgres(databaseUrl: string, folder: string, env: NodeJS.ProcessEnv) {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    // One snapshot for the facts we read and for pg_dump: the manifest describes exactly the dump.
    await client.query("begin isolation level repeatable read read only");
    const { rows } = await client.query<{ snapshot: string }>("select pg_export_snapshot() as snapshot");
    const facts = await describeDatabase(drizzle(client));
    const file = path.join(folder, POSTGRES_DUMP_FILE);
    await pgDump({ databaseUrl, file, snapshot: rows[0]!.snapshot, env });
    await client.query("commit");
    fs.chmodSync(file, 0o600);
    return { ...facts, file };
  } finally {
    await client.end();
  }
}

async function backupPglite(dataDir: string, folder: string) {
  if (!fs.existsSync(path.join(dataDir, "pgdata", "PG_VERSION"))) {
    throw new BackupError(`There is no embedded database in ${path.join(dataDir, "pgdata")}: nothing to back up`);
  }
  // Opening takes the data-folder lock: a running server holds it, and the refusal says so.
  const database = await openDatabase({ dataDir });
  try {
    const facts = await describeDatabase(database.db);
    const tarball = await database.pglite!.dumpDataDir("gzip");
    const file = path.join(folder, PGLITE_DUMP_FILE);
    await fs.promises.writeFile(file, Buffer.from(await tarball.arrayBuffer()), { mode: 0o600, flag: "wx" });
    return { ...facts, file };
  } finally {
    await database.close();
  }
}

export async function createBackup(options: BackupOptions): Promise<Manifest> {
  const folder = path.resolve(options.folder);
  prepareFolder(folder);
  const createdAt = (options.now?.() ?? new Date()).toISOString();
  const kind = "databaseUrl" in options.target ? "postgres" : "pglite";
  const db =
    "databaseUrl" in options.target
      ? await backupPostgres(options.target.databaseUrl, folder, options.env ?? {})
      : await backupPglite(options.target.dataDir, folder);

  const objects = await copyStorageToFolder(options.storage, path.join(folder, STORAGE_FOLDER));
  const copied = new Set(objects.map((o) => o.path));
  const manifest: Manifest = {
    format: 1,
    createdAt,
    app: appVersion(),
    database: {
      kind,
      file: { path: path.basename(db.file), ...(await sha256File(db.file)) },
      migrations: db.migrations,
    },
    storage: {
      source: options.storage.describe,
      objectCount: objects.length,
      objects,
      missing: db.documentKeys.filter((key) => !copied.has(key)).sort(),
    },
    encryptionKeyVersions: db.encryptionKeyVersions,
  };
  writeManifest(folder, manifest);
  return manifest;
}
