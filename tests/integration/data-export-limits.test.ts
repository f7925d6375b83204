import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { dataExportDailyLimitMessage, storageCapMessage } from "~/domain/validation/account-data";
import { loadAccountData } from "~/server/accounts/data.server";
import { openDataExport, processPendingExports, requestDataExport } from "~/server/accounts/data-export.server";
import type { Db } from "~/server/platform/db/client.server";
import { auditLog, dataExports, emailOutbox, loanApplications, loanDocuments } from "~/server/platform/db/schema.server";
import { BUCKET, createLocalStorage, type DocumentStorage } from "~/server/platform/storage/storage.server";
import { applicationRow } from "../helpers/application-rows";
import { rejectionOf } from "../helpers/rejection";
import { setUpTestConfig } from "../helpers/temp-config";
import { useTestDatabase } from "../helpers/test-db";
import { AppError, isAppError } from "~/server/platform/http/app-error.server";
import { seedApplicant } from "../helpers/seed";

/**
 * Download My Data must not fill the disk or stall the server: a new request replaces the previous
 * file, 3 requests a day, the ZIP streamed to storage (never whole in memory), the build in short
 * statements (on the embedded database other requests go on while it runs), and the file counted
 * against the person's storage cap with a clear message.
 */

const MB = 1024 * 1024;
// The cap in this file: 3 MB per person (documents plus the export file).
const dataDir = setUpTestConfig("data-export-limits", { APP_SECRET: "e".repeat(48), PUBLIC_URL: "https://loans.example.com", PERSON_STORAGE_CAP_MB: "3" });
let getDb: ReturnType<typeof useTestDatabase>;
const BASE = "https://loans.example.com";

let people = 0;
/** An applicant with one submitted application. */
async function person(db: Db) {
  const n = ++people;
  const owner = { id: `limits-${n}`, name: `Pat Limits ${n}`, email: `pat.limits.${n}@example.com` };
  await seedApplicant(db, owner);
  const [app] = await db.insert(loanApplications).values(applicationRow(owner.id, { email: owner.email })).returning({ id: loanApplications.id });
  return { owner, applicationId: app!.id };
}

/** A stored document of `bytes` random bytes; `declared` is the size its row records (the cap reads rows). */
async function addDocument(db: Db, storage: DocumentStorage, who: Awaited<ReturnType<typeof person>>, name: "bank_statement_1" | "bank_statement_2" | "bank_statement_3", bytes: number, declared = bytes) {
  const key = `${who.owner.id}/${who.applicationId}/${name}.pdf`;
  const body = randomBytes(Math.round(bytes));
  await storage.put(key, body, "application/pdf");
  await db.insert(loanDocuments).values({ applicationId: who.applicationId, userId: who.owner.id, documentType: name, fileName: `${name}.pdf`, filePath: key, fileSize: Math.round(declared), mimeType: "application/pdf" });
  return body;
}

const tokenFor = async (db: Db, email: string) => {
  const mails = await db.select().from(emailOutbox).where(and(eq(emailOutbox.template, "data-export-ready"), eq(emailOutbox.toAddress, email)));
  return /\/account\/data\/download\/([A-Za-z0-9_-]{43})/.exec(mails.at(-1)!.textBody)![1]!;
};

/**
 * The longest the event loop was kept from turning, counted in CPU time: between two ticks of a 5 ms
 * timer, the smaller of the wall time and the process's CPU time. Wall time alone would also count
 * the time this process waited for a core on a busy machine, which says nothing about the build.
 */
function busyMonitor() {
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    const cpu = process.cpuUsage(lastCpu);
    longest = Math.max(longest, Math.min(now - last, (cpu.user + cpu.system) / 1000));
    last = now;
    lastCpu = process.cpuUsage();
  }, 5);
  return () => {
    clearInterval(timer);
    return longest;
  };
}

const exportFiles = (root: string) =>
  fs.existsSync(path.join(root, BUCKET, "exports")) ? (fs.readdirSync(path.join(root, BUCKET, "exports"), { recursive: true }) as string[]).filter((f) => /\.(zip|part)$/.test(f)) : [];

describe("Download My Data's limits", () => {
  getDb = useTestDatabase({ global: true });

  it("a new request replaces the previous file: the old file and its link are gone", async () => {
    const db = getDb().db;
    const root = path.join(dataDir, "replace");
    const storage = createLocalStorage(root);
    const who = await person(db);
    await requestDataExport(db, storage, who.owner);
    expect(await processPendingExports({ db, storage, baseUrl: BASE })).toEqual({ ready: 1, failed: 0 });
    const [first] = await db.select().from(dataExports).where(eq(dataExports.userId, who.owner.id));
    const firstToken = await tokenFor(db, who.owner.email);
    expect(await storage.exists(first!.storageKey!)).toBe(true);

    const second = await requestDataExport(db, storage, who.owner);
    expect(second.replaced).toBe(1);
    expect(await storage.exists(first!.storageKey!)).toBe(false);
    expect(((await rejectionOf(openDataExport(db, storage, firstToken, who.owner))) as AppError).status).toBe(404);
    await processPendingExports({ db, storage, baseUrl: BASE });
    // One row, one file per person.
    expect(await db.select({ id: dataExports.id }).from(dataExports).where(eq(dataExports.userId, who.owner.id))).toEqual([{ id: second.id }]);
    expect(exportFiles(root)).toEqual([`${second.id}/data_export.zip`]);
    const [audit] = await db.select().from(auditLog).where(and(eq(auditLog.action, "data_export.request"), eq(auditLog.recordId, second.id)));
    expect(audit?.details).toMatchObject({ replacedFiles: 1 });
  });

  it("3 requests a day per person, then a clear message (a request refused while one is prepared is not counted)", async () => {
    const db = getDb().db;
    const storage = createLocalStorage(path.join(dataDir, "daily"));
    const who = await person(db);
    const other = await person(db);
    const morning = new Date("2026-12-07T09:00:00Z");
    for (let i = 0; i < 3; i++) {
      await requestDataExport(db, storage, who.owner, {}, { now: morning });
      if (i === 0) expect(((await rejectionOf(requestDataExport(db, storage, who.owner, {}, { now: morning }))) as AppError).status).toBe(409);
      await processPendingExports({ db, storage, baseUrl: BASE });
    }
    const fourth = (await rejectionOf(requestDataExport(db, storage, who.owner, {}, { now: morning }))) as AppError;
    expect(fourth).toSatisfy((e) => isAppError(e, "data_export"));
    expect(fourth.status).toBe(429);
    expect(fourth.message).toBe("You can request your data 3 times a day. Please try again in 15 hours.");
    expect(fourth.message).toBe(dataExportDailyLimitMessage(fourth.retryAfterSeconds!));
    // Nothing was recorded for the refused one; the last file is still there.
    expect(await db.select({ status: dataExports.status }).from(dataExports).where(eq(dataExports.userId, who.owner.id))).toEqual([{ status: "ready" }]);
    // Another person is not affected; the next day the first one may ask again.
    await requestDataExport(db, storage, other.owner, {}, { now: morning });
    await requestDataExport(db, storage, who.owner, {}, { now: new Date("2026-12-08T00:00:01Z") });
    expect(await processPendingExports({ db, storage, baseUrl: BASE })).toEqual({ ready: 2, failed: 0 });
  });

  it("the ZIP is streamed to storage in small pieces, never handed over whole", async () => {
    const db = getDb().db;
    const local = createLocalStorage(path.join(dataDir, "stream"));
    const who = await person(db);
    const files = [await addDocument(db, local, who, "bank_statement_1", 2 * MB), await addDocument(db, local, who, "bank_statement_2", 2 * MB), await addDocument(db, local, who, "bank_statement_3", 2 * MB)];
    let largestPiece = 0;
    let streamed = 0;
    const storage: DocumentStorage = {
      ...local,
      put: () => Promise.reject(new Error("the whole file was handed to put()")),
      putStream: (key, body, type, options) =>
        local.putStream(
          key,
          (async function* () {
            for await (const piece of body) {
              largestPiece = Math.max(largestPiece, piece.byteLength);
              streamed += piece.byteLength;
              yield piece;
            }
          })(),
          type,
          options,
        ),
    };
    await requestDataExport(db, storage, who.owner, {}, { capBytes: 100 * MB });
    expect(await processPendingExports({ db, storage, baseUrl: BASE, capBytes: 100 * MB })).toEqual({ ready: 1, failed: 0 });
    expect(streamed).toBeGreaterThan(6 * MB);
    expect(largestPiece).toBeLessThanOrEqual(256 * 1024);
    const download = await openDataExport(db, storage, await tokenFor(db, who.owner.email), who.owner);
    const chunks: Buffer[] = [];
    for await (const chunk of download.body) chunks.push(chunk as Buffer);
    const zip = unzipSync(new Uint8Array(Buffer.concat(chunks)));
    expect(Buffer.from(zip[`documents/${who.applicationId}/bank_statement_3.pdf`]!).equals(files[2]!)).toBe(true);
  });

  it("the build holds no transaction: on the embedded database other statements run while it reads files, and the event loop stays free", async () => {
    const db = getDb().db;
    const local = createLocalStorage(path.join(dataDir, "short"));
    const who = await person(db);
    await addDocument(db, local, who, "bank_statement_1", 64 * 1024);
    // A long conversation: some 20 MB of JSON to write and compress.
    await db.execute(sql`
      insert into application_messages (application_id, user_id, author_id, author_side, body, created_at)
      select ${who.applicationId}, ${who.owner.id}, ${who.owner.id}, 'applicant', repeat(md5(g::text) || ' ', 120), now() - g * interval '1 minute'
      from generate_series(1, 5000) g`);
    let reached!: () => void;
    const atFile = new Promise<void>((resolve) => (reached = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const storage: DocumentStorage = {
      ...local,
      get: async (key) => {
        reached();
        await gate;
        return local.get(key);
      },
    };
    await requestDataExport(db, storage, who.owner, {}, { capBytes: 100 * MB });
    const longestBusy = busyMonitor();
    const build = processPendingExports({ db, storage, baseUrl: BASE, capBytes: 100 * MB });
    await atFile;
    // Another request's statement while the build is under way: answered, not queued behind the build.
    const other = await Promise.race([db.select({ n: sql<number>`count(*)::int` }).from(dataExports), new Promise((resolve) => setTimeout(() => resolve("blocked"), 3000))]);
    release();
    expect(other).toEqual([{ n: expect.any(Number) }]);
    expect(await build).toEqual({ ready: 1, failed: 0 });
    // No single stretch of the build kept other work waiting for more than a fraction of a second
    // (the whole file at once, as before, held the loop for 0.3 s with half these messages).
    expect(longestBusy()).toBeLessThan(150);
  });

  it("the file counts against the person's storage cap: refused at once when the documents leave no room, failed with the same clear message when the file outgrows it", async () => {
    const db = getDb().db;
    const root = path.join(dataDir, "cap");
    const storage = createLocalStorage(root);
    const message = storageCapMessage(3 * MB);
    expect(message).toBe(
      "Your data file would not fit in the 3 MB of storage each person has with us (your documents count too). Contact us and we will send you your data another way.",
    );

    // 1.6 MB of documents: the file would hold them again, 3.2 MB in all. Refused before anything is built.
    const full = await person(db);
    await addDocument(db, storage, full, "bank_statement_1", 1.6 * MB);
    const refused = (await rejectionOf(requestDataExport(db, storage, full.owner))) as AppError;
    expect([refused.status, refused.message]).toEqual([409, message]);
    expect(await db.select().from(dataExports).where(eq(dataExports.userId, full.owner.id))).toEqual([]);

    // Rows say 1 MB, the stored file is 2.5 MB: the 2 MB left for the file is passed while it is written.
    const growing = await person(db);
    await addDocument(db, storage, growing, "bank_statement_1", 2.5 * MB, 1 * MB);
    await requestDataExport(db, storage, growing.owner);
    expect(await processPendingExports({ db, storage, baseUrl: BASE })).toEqual({ ready: 0, failed: 1 });
    const [row] = await db.select().from(dataExports).where(eq(dataExports.userId, growing.owner.id));
    expect(row?.status).toBe("failed");
    expect(exportFiles(root)).toEqual([]);
    expect((await loadAccountData(growing.owner.id, db)).latestExport).toMatchObject({ status: "failed", message });
    const [failed] = await db.select().from(auditLog).where(and(eq(auditLog.action, "data_export.failed"), eq(auditLog.recordId, row!.id)));
    expect(failed?.details).toMatchObject({ storageCap: true });
  });
});
