import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { Database } from "~/server/platform/db/client.server";
import { findMigrationsFolder } from "~/server/platform/db/migrate.server";

/**
 * manifest.json, written last into a backup folder: its presence marks the backup complete, and
 * its checksums let a restore refuse a damaged or altered copy before touching anything.
 */

export const MANIFEST_FILE = "manifest.json";
export const STORAGE_FOLDER = "storage";
export const POSTGRES_DUMP_FILE = "database.dump";
export const PGLITE_DUMP_FILE = "pgdata.tar.gz";

export type BackupFile = { path: string; size: number; sha256: string };

export type Manifest = {
  format: 1;
  createdAt: string;
  app: { name: string; version: string };
  database: {
    kind: "postgres" | "pglite";
    /** pg_dump's custom format, or PGlite's data-folder tarball. */
    file: BackupFile;
    /** Migrations applied in the backed-up database, and the last one's name. */
    migrations: { applied: number; latest: string | null };
  };
  storage: {
    /** Where the objects came from (never credentials). */
    source: string;
    objectCount: number;
    /** Paths relative to the storage folder, i.e. the storage keys. */
    objects: BackupFile[];
    /** Keys that rows in the backed-up database name but the storage did not hold. */
    missing: string[];
  };
  /** Key versions (`enc:v<N>:`) found in encrypted columns: the keys a restore needs. */
  encryptionKeyVersions: number[];
};

export async function sha256File(file: string): Promise<{ size: number; sha256: string }> {
  const hash = createHash("sha256");
  let size = 0;
  for await (const chunk of fs.createReadStream(file) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { size, sha256: hash.digest("hex") };
}

export function readManifest(folder: string): Manifest {
  const file = path.join(folder, MANIFEST_FILE);
  let parsed: Manifest;
  try {
    parsed = JSON.parse(fs.readFileSync(file, "utf8")) as Manifest;
  } catch (error) {
    throw new BackupError(`${file} cannot be read (${(error as Error).message}): not a complete backup folder`);
  }
  if (parsed.format !== 1) throw new BackupError(`${file}: unknown backup format ${JSON.stringify(parsed.format)}`);
  return parsed;
}

export function writeManifest(folder: string, manifest: Manifest): void {
  fs.writeFileSync(path.join(folder, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
}

/** A refusal or failure the commands print as is (no stack trace). */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupError";
  }
}

type Journal = { entries: { tag: string }[] };

export function knownMigrations(): string[] {
  const journal = JSON.parse(fs.readFileSync(path.join(findMigrationsFolder(), "meta", "_journal.json"), "utf8")) as Journal;
  return journal.entries.map((e) => e.tag);
}

export function appVersion(): { name: string; version: string } {
  const pkg = JSON.parse(fs.readFileSync(path.join(path.dirname(findMigrationsFolder()), "package.json"), "utf8")) as {
    name: string;
    version: string;
  };
  return { name: pkg.name, version: pkg.version };
}

type Executor = { execute: Database["db"]["execute"] };

async function rows<T>(db: Executor, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** The facts a manifest records about the database, read inside the snapshot being backed up. */
export async function describeDatabase(db: Executor): Promise<{
  migrations: Manifest["database"]["migrations"];
  documentKeys: string[];
  encryptionKeyVersions: number[];
}> {
  const [present] = await rows<{ present: boolean }>(db, sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`);
  const applied = present?.present
    ? Number((await rows<{ n: number }>(db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`))[0]?.n ?? 0)
    : 0;
  const tags = knownMigrations();
  const documentKeys = applied > 0 ? (await rows<{ key: string }>(db, sql`select file_path as key from loan_documents`)).map((r) => r.key) : [];
  // The signed loan agreements (migration 0007) are stored objects too.
  const [agreements] = applied > 0 ? await rows<{ present: boolean }>(db, sql`select to_regclass('public.signed_agreements') is not null as present`) : [];
  if (agreements?.present) documentKeys.push(...(await rows<{ key: string }>(db, sql`select storage_key as key from signed_agreements`)).map((r) => r.key));
  const versions =
    applied > 0
      ? await rows<{ v: number }>(
          db,
          sql`select distinct substring(value from '^enc:v([0-9]+):')::int as v from (
                select ssn_encrypted as value from loan_applications
                union all select account_number from bank_accounts
                union all select routing_number from bank_accounts
                union all select secret_encrypted from admin_mfa
              ) encrypted where value like 'enc:v%' order by 1`,
        )
      : [];
  return {
    migrations: { applied, latest: applied > 0 ? (tags[applied - 1] ?? `unknown #${applied}`) : null },
    documentKeys,
    encryptionKeyVersions: versions.map((r) => Number(r.v)),
  };
}
