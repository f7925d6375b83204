import { eq } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { submitApplication } from "~/server/applications/submit.server";
import { loadConfig, setConfig } from "~/server/platform/config.server";
import { auditLog, loanDocuments } from "~/server/platform/db/schema.server";
import { createS3Storage } from "~/server/platform/storage/s3-storage.server";
import { startOrphanSweeper, sweepOrphans } from "~/server/platform/storage/orphan-sweep.server";
import { referencedStorageKeys } from "~/server/retention/index.server";
import { BUCKET, createLocalStorage, type DocumentStorage } from "~/server/platform/storage/storage.server";
import { startFakeS3, type FakeS3 } from "../helpers/fake-s3";
import { makePdf } from "../helpers/files";
import { useTestDatabase } from "../helpers/test-db";
import { validFields, validFiles } from "../helpers/applications";
import { seedApplicant } from "../helpers/seed";

/**
 * The orphan sweep on both storage adapters: files no loan_documents row names are removed once they
 * are older than the cut-off; documents of real applications and files too recent to judge are kept.
 */

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-sweep-"));
const HOUR = 3600_000;
let fake: FakeS3;

beforeAll(async () => {
  setConfig(loadConfig({ DATA_DIR: dataDir, APP_SECRET: "s".repeat(48) }));
  fake = await startFakeS3({ accessKeyId: "AKIDSWEEP", secretAccessKey: "sweep-secret", buckets: ["loan-documents"] });
});
afterAll(async () => {
  await fake.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

type Kind = {
  name: string;
  make: () => DocumentStorage;
  /** Moves an object's modification time into the past, as if it had been written then. */
  age: (key: string, ms: number) => void;
  /** Leaves half a write behind (local only: an S3 PUT is atomic). */
  partial?: (key: string, ms: number) => string;
};

const localRoot = path.join(dataDir, "storage");
const kinds: Kind[] = [
  {
    name: "local storage",
    make: () => createLocalStorage(localRoot),
    age: (key, ms) => {
      const when = new Date(Date.now() - ms);
      fs.utimesSync(path.join(localRoot, BUCKET, key), when, when);
    },
    partial: (key, ms) => {
      const file = path.join(localRoot, BUCKET, `${key}.4242.1700000000000.part`);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, "half a file");
      const when = new Date(Date.now() - ms);
      fs.utimesSync(file, when, when);
      return file;
    },
  },
  {
    name: "S3 (fake server with SigV4 checks)",
    make: () =>
      createS3Storage({
        endpoint: fake.endpoint,
        region: "us-east-1",
        bucket: "loan-documents",
        accessKeyId: "AKIDSWEEP",
        secretAccessKey: "sweep-secret",
        forcePathStyle: true,
      }),
    age: (key, ms) => {
      const object = fake.buckets.get("loan-documents")!.get(key)!;
      object.lastModified = new Date(Date.now() - ms);
    },
  },
];

describe.each(kinds)("orphan sweep on $name", (kind) => {
  const database = useTestDatabase({ global: true });
  let storage: DocumentStorage;
  let applicantId: string;

  async function submit(): Promise<string[]> {
    const files = new Map(
      Object.entries(validFiles()).map(([field, f]) => [field, { field, filename: f.name, declaredType: f.type, size: f.bytes.length, read: async () => f.bytes }]),
    );
    const { applicationId } = await submitApplication(
      { id: applicantId, name: "Jane Doe", email: "jane@example.com" },
      { fields: { ...validFields, idempotencyKey: randomUUID() }, files },
      { db: database().db, storage },
    );
    const rows = await database().db.select().from(loanDocuments).where(eq(loanDocuments.applicationId, applicationId));
    return rows.map((r) => r.filePath).sort();
  }

  const orphanKeys = (app: string) => [`${applicantId}/${app}/id_front.pdf`, `${applicantId}/${app}/signature.png`];
  const putAll = async (keys: string[]) => {
    for (const key of keys) await storage.put(key, makePdf(500), "application/pdf");
  };
  const sweepAudits = () => database().db.select().from(auditLog).where(eq(auditLog.action, "storage.orphan_sweep"));

  beforeAll(async () => {
    storage = kind.make();
    applicantId = `applicant_${randomUUID().replaceAll("-", "")}`;
    await seedApplicant(database().db, { id: applicantId, name: "Jane Doe", email: `${applicantId}@example.com`, emailVerified: false });
  });

  it("removes old orphans (and old half-written files), keeps referenced documents and recent files, audits the count", async () => {
    const kept = await submit();
    expect(kept.length).toBeGreaterThanOrEqual(7);
    for (const key of kept) kind.age(key, 2 * HOUR); // old, but an application names them
    const old = orphanKeys("crashed_app_1");
    const recent = orphanKeys("in_flight_app");
    await putAll([...old, ...recent]);
    for (const key of old) kind.age(key, 2 * HOUR);
    const oldPart = kind.partial?.(`${applicantId}/crashed_app_2/id_back.jpg`, 2 * HOUR);
    const recentPart = kind.partial?.(`${applicantId}/in_flight_app/id_back.jpg`, 0);

    const result = await sweepOrphans({ db: database().db, storage, olderThan: new Date(Date.now() - HOUR), reason: "test", referenced: referencedStorageKeys });

    expect(result.removed.sort()).toEqual(old.sort());
    expect(result.incompleteWrites).toBe(oldPart ? 1 : 0);
    expect(await storage.list(`${applicantId}/`)).toEqual([...kept, ...recent].sort());
    for (const key of kept) expect(await storage.exists(key)).toBe(true);
    if (oldPart) expect(fs.existsSync(oldPart)).toBe(false);
    if (recentPart) expect(fs.existsSync(recentPart)).toBe(true);

    const audits = await sweepAudits();
    expect(audits).toHaveLength(1);
    expect(audits[0]!.actorId).toBeNull();
    expect(audits[0]!.details).toMatchObject({ reason: "test", removed: 2, incompleteWrites: oldPart ? 1 : 0, keys: old.sort() });

    // Nothing left to remove: no second audit row, the referenced documents still there.
    const again = await sweepOrphans({ db: database().db, storage, olderThan: new Date(Date.now() - HOUR), reason: "test", referenced: referencedStorageKeys });
    expect(again.removed).toEqual([]);
    expect(await sweepAudits()).toHaveLength(1);
    await Promise.all(recent.map((key) => storage.delete(key)));
    if (recentPart) fs.rmSync(recentPart);
  });

  it("at start-up on a shared database, a file within the grace period is left for the instance writing it", async () => {
    const recent = orphanKeys("other_instance_app");
    await putAll(recent);
    const lines: string[] = [];
    const sweeper = startOrphanSweeper({ db: database().db, storage, graceSeconds: 3600, singleProcess: false, log: (l) => lines.push(l), referenced: referencedStorageKeys });
    const result = await sweeper.startup;
    await sweeper.stop();
    expect(result?.removed).toEqual([]);
    expect(await storage.list(`${applicantId}/other_instance_app/`)).toEqual(recent.sort());
    expect(lines.join("\n")).toMatch(/orphan sweep \(start-up\): \d+ objects, removed 0 orphans/);
    await Promise.all(recent.map((key) => storage.delete(key)));
  });

  it("at start-up on the embedded database (one process), every orphan older than the process goes, whatever the grace", async () => {
    const kept = await submit();
    const before = orphanKeys("killed_mid_submit");
    await putAll(before);
    await new Promise((r) => setTimeout(r, 20)); // the files are strictly older than the process start
    const lines: string[] = [];
    const sweeper = startOrphanSweeper({ db: database().db, storage, graceSeconds: 3600, singleProcess: true, log: (l) => lines.push(l), referenced: referencedStorageKeys });
    const result = await sweeper.startup;
    await sweeper.stop();
    expect(result?.removed.sort()).toEqual(before.sort());
    for (const key of before) expect(await storage.exists(key)).toBe(false);
    for (const key of kept) expect(await storage.exists(key)).toBe(true);
    expect(lines.join("\n")).toMatch(/orphan sweep \(start-up\): \d+ objects, removed 2 orphans/);
  });

  it("a periodic sweep only takes orphans past the grace period", async () => {
    const old = orphanKeys("old_orphan");
    const young = orphanKeys("young_orphan");
    const lines: string[] = [];
    const sweeper = startOrphanSweeper({
      db: database().db,
      storage,
      graceSeconds: 3600,
      singleProcess: false,
      log: (l) => lines.push(l),
      intervalMs: 50,
      referenced: referencedStorageKeys,
    });
    await sweeper.startup;
    // Written after the start-up sweep: only a periodic sweep can find them.
    await putAll([...old, ...young]);
    for (const key of old) kind.age(key, 2 * HOUR);
    await new Promise((r) => setTimeout(r, 400));
    await sweeper.stop();
    expect(lines.join("\n")).toMatch(/orphan sweep \(periodic\): \d+ objects, removed 2 orphans/);
    for (const key of old) expect(await storage.exists(key)).toBe(false);
    for (const key of young) expect(await storage.exists(key)).toBe(true);
    await Promise.all(young.map((key) => storage.delete(key)));
  });
});
