import { sql } from "drizzle-orm";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../../scripts/demo/seed";
import { createBackup, type BackupTarget } from "~/server/platform/backup/backup.server";
import { BackupError, readManifest, STORAGE_FOLDER } from "~/server/platform/backup/manifest.server";
import { restoreBackup } from "~/server/platform/backup/restore.server";
import { loadConfig, setConfig } from "~/server/platform/config.server";
import { openDatabase, setDatabase, type Database } from "~/server/platform/db/client.server";
import { DataDirLockedError } from "~/server/platform/db/data-dir-lock.server";
import { runMigrations } from "~/server/platform/db/migrate.server";
import { session, verification } from "~/server/platform/db/schema.server";
import { createLocalStorage } from "~/server/platform/storage/storage.server";
import type { DocumentStorage } from "~/server/platform/storage/storage-keys.server";
import { createScratchPostgresDatabase, testTargets, type TestTarget } from "../helpers/test-db";

/**
 * npm run backup / restore end to end: a populated instance (the demo data set: users, applications
 * with documents, decisions, loans, audit rows, outbox e-mails) is backed up, restored into a fresh
 * instance, and every row of every table and every stored file is compared.
 */

const dirs: string[] = [];
const drops: (() => Promise<void>)[] = [];
function tempDir(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `portal-backup-${name}-`));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  for (const drop of drops.splice(0)) await drop();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

type Instance = { target: BackupTarget; dataDir: string; storage: DocumentStorage; open: () => Promise<Database> };

async function newInstance(kind: TestTarget): Promise<Instance> {
  const dataDir = tempDir("data");
  const storage = createLocalStorage(path.join(dataDir, "storage"));
  if (kind === "postgres") {
    const scratch = await createScratchPostgresDatabase();
    drops.push(scratch.drop);
    return { target: { databaseUrl: scratch.url }, dataDir, storage, open: () => openDatabase({ databaseUrl: scratch.url, poolSize: 2 }) };
  }
  return { target: { dataDir }, dataDir, storage, open: () => openDatabase({ dataDir }) };
}

/** Every row of every table we created (public and drizzle schemas), as JSON text, in a stable order. */
async function everyRow(database: Database): Promise<Record<string, string[]>> {
  const q = async <T,>(query: ReturnType<typeof sql>) => ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;
  const tables = await q<{ s: string; t: string }>(
    sql`select table_schema as s, table_name as t from information_schema.tables
        where table_schema in ('public', 'drizzle') and table_type = 'BASE TABLE' order by 1, 2`,
  );
  const out: Record<string, string[]> = {};
  for (const { s, t } of tables) {
    const rows = await q<{ j: string }>(sql.raw(`select row_to_json(x)::text as j from "${s}"."${t}" x order by 1`));
    out[`${s}.${t}`] = rows.map((r) => r.j);
  }
  return out;
}

async function everyFile(storage: DocumentStorage): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const key of await storage.list()) {
    const object = await storage.get(key);
    const chunks: Buffer[] = [];
    for await (const chunk of object!.body as AsyncIterable<Buffer>) chunks.push(chunk);
    files.set(key, Buffer.concat(chunks));
  }
  return files;
}

describe.each(testTargets)("backup and restore on %s", (kind) => {
  let source: Instance;
  let rowsBefore: Record<string, string[]>;
  let filesBefore: Map<string, Buffer>;
  let folder: string;

  beforeAll(async () => {
    source = await newInstance(kind);
    setConfig(loadConfig({ DATA_DIR: source.dataDir, APP_SECRET: "s".repeat(48), PWNED_PASSWORDS_URL: "off" }));
    const database = await source.open();
    setDatabase(database);
    try {
      await runMigrations(database);
      await seedDemo(database, { storage: source.storage });
      // Records the demo does not make: a session, a reset token.
      const [someone] = await database.db.execute(sql`select id from "user" limit 1`).then((r) => (r as unknown as { rows: { id: string }[] }).rows);
      await database.db.insert(session).values({ id: "s-backup", token: "t-backup", userId: someone!.id, expiresAt: new Date(Date.now() + 3_600_000) });
      await database.db.insert(verification).values({ id: "v-backup", identifier: "reset-password:x", value: someone!.id, expiresAt: new Date(Date.now() + 3_600_000) });
      rowsBefore = await everyRow(database);
    } finally {
      setDatabase(undefined);
      await database.close();
    }
    filesBefore = await everyFile(source.storage);
    folder = path.join(tempDir("folder"), "backup");
  }, 180_000);

  it("the populated instance has what the comparison needs", () => {
    for (const table of ["public.user", "public.loan_applications", "public.loan_documents", "public.bank_accounts", "public.approved_loans", "public.audit_log", "public.email_outbox", "public.session", "public.contact_messages", "drizzle.__drizzle_migrations"]) {
      expect(rowsBefore[table]?.length, table).toBeGreaterThan(0);
    }
    expect(filesBefore.size).toBeGreaterThan(10);
  });

  it("writes the database, every document and a manifest with checksums", async () => {
    const manifest = await createBackup({ folder, target: source.target, storage: source.storage, env: process.env });
    expect(manifest).toMatchObject({ format: 1, database: { kind }, storage: { objectCount: filesBefore.size, missing: [] } });
    expect(manifest.database.migrations.applied).toBe(rowsBefore["drizzle.__drizzle_migrations"]!.length);
    expect(manifest.encryptionKeyVersions).toEqual([1]);
    expect(readManifest(folder)).toEqual(manifest);
    for (const object of manifest.storage.objects) {
      expect(fs.readFileSync(path.join(folder, STORAGE_FOLDER, object.path)).equals(filesBefore.get(object.path)!)).toBe(true);
    }
    // Only the owner may read it.
    expect(fs.statSync(folder).mode & 0o077).toBe(0);
    expect(fs.statSync(path.join(folder, manifest.database.file.path)).mode & 0o077).toBe(0);
    await expect(createBackup({ folder, target: source.target, storage: source.storage })).rejects.toThrow(/not empty/);
  }, 120_000);

  it("restores into a fresh instance: every row of every table and every file byte for byte", async () => {
    const fresh = await newInstance(kind);
    const { warnings } = await restoreBackup({ folder, target: fresh.target, storage: fresh.storage, encryptionKeyVersions: [1], env: process.env });
    expect(warnings).toEqual([]);
    const database = await fresh.open();
    try {
      expect(await everyRow(database)).toEqual(rowsBefore);
      // Still append-only, and the identity goes on after the restored rows.
      await expect(database.db.execute(sql`delete from audit_log`)).rejects.toThrow();
      await database.db.execute(sql`insert into audit_log (action) values ('records.dispose')`);
    } finally {
      await database.close();
    }
    const filesAfter = await everyFile(fresh.storage);
    expect([...filesAfter.keys()]).toEqual([...filesBefore.keys()]);
    for (const [key, bytes] of filesBefore) expect(filesAfter.get(key)!.equals(bytes), key).toBe(true);

    // A second restore into it is refused without --force, and replaces it with --force.
    await expect(restoreBackup({ folder, target: fresh.target, storage: fresh.storage, env: process.env })).rejects.toThrow(/not empty|--force/);
    await restoreBackup({ folder, target: fresh.target, storage: fresh.storage, force: true, env: process.env });
    const again = await fresh.open();
    try {
      expect(await everyRow(again)).toEqual(rowsBefore);
    } finally {
      await again.close();
    }
  }, 180_000);

  it("refuses a damaged backup before writing anything, and warns about missing keys", async () => {
    const fresh = await newInstance(kind);
    const copy = path.join(tempDir("damaged"), "backup");
    fs.cpSync(folder, copy, { recursive: true });
    const manifest = readManifest(copy);
    const victim = path.join(copy, STORAGE_FOLDER, manifest.storage.objects[0]!.path);
    const bytes = fs.readFileSync(victim);
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 1) ^ 0xff, bytes.length - 1);
    fs.writeFileSync(victim, bytes);
    const error = await restoreBackup({ folder: copy, target: fresh.target, storage: fresh.storage, env: process.env }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BackupError);
    expect((error as Error).message).toMatch(/damaged/);
    expect(await fresh.storage.list()).toEqual([]);
    if (kind === "pglite") expect(fs.existsSync(path.join(fresh.dataDir, "pgdata"))).toBe(false);

    const { warnings } = await restoreBackup({ folder, target: fresh.target, storage: fresh.storage, encryptionKeyVersions: [2], env: process.env });
    expect(warnings.join("\n")).toMatch(/key version v1.*ENCRYPTION_KEY/);
  }, 180_000);

  if (kind === "pglite") {
    it("refuses to back up an embedded database a running server holds, naming the way out", async () => {
      const running = await source.open();
      try {
        const error = await createBackup({ folder: path.join(tempDir("locked"), "b"), target: source.target, storage: source.storage }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(DataDirLockedError);
      } finally {
        await running.close();
      }
    }, 60_000);

    it("refuses a PostgreSQL target for an embedded backup", async () => {
      await expect(
        restoreBackup({ folder, target: { databaseUrl: "postgres://nobody@127.0.0.1:1/none" }, storage: createLocalStorage(tempDir("x")) }),
      ).rejects.toThrow(/embedded \(PGlite\) database/);
    });
  }
});
