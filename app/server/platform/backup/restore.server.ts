import { PGlite } from "@electric-sql/pglite";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { acquireDataDirLock } from "~/server/platform/db/data-dir-lock.server";
import type { DocumentStorage } from "~/server/platform/storage/storage-keys.server";
import { BackupError, knownMigrations, readManifest, STORAGE_FOLDER, type Manifest } from "./manifest.server";
import { pgRestore } from "./pg-tools.server";
import { restoreStorageFromFolder, verifyFiles } from "./storage-copy.server";
import type { BackupTarget } from "./backup.server";

/**
 * Brings a backup folder back into an empty database (or embedded data folder) and an empty
 * document storage. Everything that can be checked is checked before anything is written: the
 * manifest, every checksum, the migration level, and that both targets are empty (or --force).
 */

export type RestoreOptions = {
  folder: string;
  target: BackupTarget;
  storage: DocumentStorage;
  /** Replace a non-empty database and storage (their current content is deleted). */
  force?: boolean;
  /** Key versions the configuration holds, to warn about ciphertext nothing can decrypt. */
  encryptionKeyVersions?: number[];
  env?: NodeJS.ProcessEnv;
};

export type RestoreResult = { manifest: Manifest; warnings: string[] };

async function postgresTables(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      "select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace where c.relkind in ('r', 'p', 'v', 'm', 'S') and n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')",
    );
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

async function emptyPostgres(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    await client.query("begin");
    await client.query("drop schema if exists drizzle cascade");
    await client.query("drop schema if exists public cascade");
    await client.query("create schema public");
    await client.query("commit");
  } finally {
    await client.end();
  }
}

function isEmptyFolder(dir: string): boolean {
  return !fs.existsSync(dir) || fs.readdirSync(dir).length === 0;
}

export async function restoreBackup(options: RestoreOptions): Promise<RestoreResult> {
  const folder = path.resolve(options.folder);
  const manifest = readManifest(folder);
  const warnings: string[] = [];
  const targetKind = "databaseUrl" in options.target ? "postgres" : "pglite";
  if (manifest.database.kind !== targetKind) {
    throw new BackupError(
      `This backup is of ${manifest.database.kind === "postgres" ? "a PostgreSQL database" : "an embedded (PGlite) database"}; ` +
        `restore it with ${manifest.database.kind === "postgres" ? "DATABASE_URL set to an empty PostgreSQL database" : "DATABASE_URL unset (DATA_DIR names the data folder)"}`,
    );
  }
  const known = knownMigrations();
  if (manifest.database.migrations.applied > known.length) {
    throw new BackupError(
      `This backup comes from a newer version (${manifest.database.migrations.applied} migrations, ${manifest.database.migrations.latest}); ` +
        `this code knows ${known.length}: restore it with version ${manifest.app.version} or later`,
    );
  }
  await verifyFiles(folder, [manifest.database.file]);
  await verifyFiles(path.join(folder, STORAGE_FOLDER), manifest.storage.objects);

  // Targets: all checked before either is changed.
  let releaseLock: (() => void) | undefined;
  try {
    if ("databaseUrl" in options.target) {
      if ((await postgresTables(options.target.databaseUrl)) > 0 && !options.force) {
        throw new BackupError("The target database is not empty: restore into a new database, or add --force to replace its content");
      }
    } else {
      releaseLock = acquireDataDirLock(options.target.dataDir).release;
      if (!isEmptyFolder(path.join(options.target.dataDir, "pgdata")) && !options.force) {
        throw new BackupError(
          `${path.join(path.resolve(options.target.dataDir), "pgdata")} is not empty: restore into a new DATA_DIR, or add --force to replace it`,
        );
      }
    }
    const existing = await options.storage.list();
    if (existing.length > 0 && !options.force) {
      throw new BackupError(`The document storage (${options.storage.describe}) holds ${existing.length} objects: restore into an empty one, or add --force to replace them`);
    }

    if ("databaseUrl" in options.target) {
      await emptyPostgres(options.target.databaseUrl);
      await pgRestore({ databaseUrl: options.target.databaseUrl, file: path.join(folder, manifest.database.file.path), env: options.env ?? {} });
    } else {
      const pgdata = path.join(path.resolve(options.target.dataDir), "pgdata");
      fs.rmSync(pgdata, { recursive: true, force: true });
      fs.mkdirSync(pgdata, { recursive: true, mode: 0o700 });
      const tarball = new Blob([await fs.promises.readFile(path.join(folder, manifest.database.file.path))]);
      const client = await PGlite.create({ dataDir: pgdata, loadDataDir: tarball });
      await client.close();
    }
    for (const key of existing) await options.storage.delete(key);
    await restoreStorageFromFolder(options.storage, path.join(folder, STORAGE_FOLDER), manifest.storage.objects);
  } finally {
    releaseLock?.();
  }

  if (manifest.storage.missing.length > 0) {
    warnings.push(`${manifest.storage.missing.length} documents named by the database were not in the storage when the backup was taken`);
  }
  const have = new Set(options.encryptionKeyVersions ?? []);
  const lacking = manifest.encryptionKeyVersions.filter((v) => !have.has(v));
  if (options.encryptionKeyVersions && lacking.length > 0) {
    warnings.push(
      `The data is encrypted with key version${lacking.length > 1 ? "s" : ""} ${lacking.map((v) => `v${v}`).join(", ")}, which ENCRYPTION_KEY does not hold: ` +
        "SSNs and bank numbers cannot be revealed until ENCRYPTION_KEY includes the original key (it is never in a backup)",
    );
  }
  return { manifest, warnings };
}
