import { desc, eq, inArray } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "~/server/platform/db/client.server";
import {
  approvedLoans,
  auditLog,
  bankAccounts,
  achBatches,
  achTraceSequences,
  contactMessages,
  emailOutbox,
  emailVerificationCodes,
  webauthnChallenges,
  loanApplications,
  loanDocuments,
  rateLimit,
  rateLimitHits,
  session,
  verification,
} from "~/server/platform/db/schema.server";
import { startRetentionJob } from "~/server/retention/daily-job.server";
import { disposeExpiredRecords, type DisposalCounts } from "~/server/retention/disposal.server";
import { cutoffFor, RETENTION_POLICY } from "~/server/retention/policy.server";
import { createLocalStorage } from "~/server/platform/storage/storage.server";
import { documentKey, type DocumentStorage } from "~/server/platform/storage/storage-keys.server";
import { makePdf } from "../helpers/files";
import { applicationRow } from "../helpers/application-rows";
import { testTargets, useTestDatabase } from "../helpers/test-db";
import { seedApplicants } from "../helpers/seed";

/** The disposal job with an injected clock: one minute inside each period stays, one minute outside goes. */

const NOW = new Date("2031-03-31T12:00:00.000Z");
const MINUTE = 60_000;
const p = RETENTION_POLICY;
const inside = (period: Parameters<typeof cutoffFor>[0]) => new Date(cutoffFor(period, NOW).getTime() + MINUTE);
const outside = (period: Parameters<typeof cutoffFor>[0]) => new Date(cutoffFor(period, NOW).getTime() - MINUTE);

/** Seeds one record a minute inside `period` (kept) and one a minute outside it (gone). */
async function eachSideOf(period: Parameters<typeof cutoffFor>[0], seedOne: (expect: "keep" | "go", at: Date) => Promise<void>): Promise<void> {
  await seedOne("keep", inside(period));
  await seedOne("go", outside(period));
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("retention policy", () => {
  it("keeps applications and decision records at least 25 months after the decision", () => {
    for (const rule of [p.decidedApplication, p.closedLoanApplication, p.withdrawnApplication, p.undecidedApplication]) {
      const cutoff = cutoffFor(rule.period, NOW);
      const floor = new Date(NOW);
      floor.setUTCMonth(floor.getUTCMonth() - 25);
      expect(cutoff.getTime()).toBeLessThan(floor.getTime());
    }
  });

  it("counts calendar months without spilling into the next month", () => {
    expect(cutoffFor({ months: 1 }, new Date("2031-03-31T12:00:00Z")).toISOString()).toBe("2031-02-28T12:00:00.000Z");
    expect(cutoffFor({ months: 84 }, new Date("2031-03-31T12:00:00Z")).toISOString()).toBe("2024-03-31T12:00:00.000Z");
    expect(cutoffFor({ months: 12 }, new Date("2032-02-29T00:00:00Z")).toISOString()).toBe("2031-02-28T00:00:00.000Z");
    expect(cutoffFor({ days: 30 }, new Date("2031-03-31T12:00:00Z")).toISOString()).toBe("2031-03-01T12:00:00.000Z");
  });
});

type Seeded = { keep: Set<string>; go: Set<string>; keepFiles: string[]; goFiles: string[] };

async function seed(db: Db, storage: DocumentStorage): Promise<Seeded> {
  const s: Seeded = { keep: new Set(), go: new Set(), keepFiles: [], goFiles: [] };
  const applicantId = randomUUID();
  const reviewerId = randomUUID();
  await seedApplicants(db, [
    { id: applicantId, name: "Ann Applicant", email: `ann-${applicantId}@example.com`, emailVerified: false },
    { id: reviewerId, name: "Rex Reviewer", email: `rex-${reviewerId}@example.com`, emailVerified: false },
  ]);

  async function application(
    name: string,
    expect: "keep" | "go",
    fields: { status: "pending" | "under_review" | "approved" | "denied" | "withdrawn"; reviewedAt?: Date; withdrawnAt?: Date; updatedAt: Date },
    loan?: { status: "active" | "paid_off" | "closed"; updatedAt: Date },
  ) {
    const id = randomUUID();
    await db.insert(loanApplications).values(
      applicationRow(applicantId, {
        id,
        status: fields.status,
        purpose: `Retention fixture: ${name}`,
        idempotencyKey: name,
        reviewedAt: fields.reviewedAt ?? null,
        reviewedBy: fields.reviewedAt ? reviewerId : null,
        withdrawnAt: fields.withdrawnAt ?? null,
        withdrawnBy: fields.withdrawnAt ? applicantId : null,
        submittedAt: new Date("2020-01-01T00:00:00Z"),
        createdAt: new Date("2020-01-01T00:00:00Z"),
        updatedAt: fields.updatedAt,
      }),
    );
    const key = documentKey(applicantId, id, "bank_statement_1", "pdf");
    await storage.put(key, makePdf(600), "application/pdf");
    await db.insert(loanDocuments).values({
      applicationId: id,
      userId: applicantId,
      documentType: "bank_statement_1",
      fileName: "statement.pdf",
      filePath: key,
      fileSize: 600,
      mimeType: "application/pdf",
    });
    await db.insert(bankAccounts).values({
      userId: applicantId,
      applicationId: id,
      accountHolderName: "Ann Applicant",
      bankName: "First Bank",
      accountNumber: "enc:v1:AAAA",
      routingNumber: "enc:v1:BBBB",
      accountNumberLast4: "6789",
      routingNumberLast2: "21",
    });
    if (loan) {
      await db.insert(approvedLoans).values({
        userId: applicantId,
        applicationId: id,
        obligorName: "Ann Applicant",
        status: loan.status,
        balanceCents: 0,
        termMonths: 36,
        amountCents: 1_000_000,
        noteRateMilli: 9000,
        paymentCents: 32_000,
        startDate: "2020-01-01",
        updatedAt: loan.updatedAt,
      });
    }
    s[expect].add(`application:${id}`);
    (expect === "keep" ? s.keepFiles : s.goFiles).push(key);
  }

  const decided = p.decidedApplication.period;
  const undecided = p.undecidedApplication.period;
  const closed = p.closedLoanApplication.period;
  const longAgo = new Date("2001-01-01T00:00:00Z");
  await application("denied-inside", "keep", { status: "denied", reviewedAt: inside(decided), updatedAt: longAgo });
  await application("denied-outside", "go", { status: "denied", reviewedAt: outside(decided), updatedAt: NOW });
  await application("pending-inside", "keep", { status: "pending", updatedAt: inside(undecided) });
  await application("review-outside", "go", { status: "under_review", updatedAt: outside(undecided) });
  // Withdrawn: the withdrawal is the clock, not a later change of the row (nor its absent decision).
  await application("withdrawn-inside", "keep", { status: "withdrawn", withdrawnAt: inside(p.withdrawnApplication.period), updatedAt: longAgo });
  await application("withdrawn-outside", "go", { status: "withdrawn", withdrawnAt: outside(p.withdrawnApplication.period), updatedAt: NOW });
  await application("loan-active", "keep", { status: "approved", reviewedAt: longAgo, updatedAt: longAgo }, { status: "active", updatedAt: longAgo });
  await application("loan-closed-inside", "keep", { status: "approved", reviewedAt: longAgo, updatedAt: longAgo }, { status: "closed", updatedAt: inside(closed) });
  await application("loan-paid-outside", "go", { status: "approved", reviewedAt: longAgo, updatedAt: longAgo }, { status: "paid_off", updatedAt: outside(closed) });

  const message = async (expect: "keep" | "go", createdAt: Date) => {
    const [row] = await db
      .insert(contactMessages)
      .values({ name: "Cal", email: "cal@example.com", subject: "Rates", message: "What are your rates?", createdAt })
      .returning({ id: contactMessages.id });
    s[expect].add(`contact:${row!.id}`);
  };
  await eachSideOf(p.contactMessage.period, message);

  const mail = async (expect: "keep" | "go", values: Partial<typeof emailOutbox.$inferInsert>) => {
    const [row] = await db
      .insert(emailOutbox)
      .values({ toAddress: "ann@example.com", subject: "Your application", textBody: "Hello", template: "decision", ...values })
      .returning({ id: emailOutbox.id });
    s[expect].add(`mail:${row!.id}`);
  };
  await mail("keep", { status: "sent", sentAt: inside(p.sentEmail.period), createdAt: longAgo });
  await mail("go", { status: "sent", sentAt: outside(p.sentEmail.period), createdAt: NOW });
  await mail("keep", { status: "failed", createdAt: inside(p.failedEmail.period) });
  await mail("go", { status: "failed", createdAt: outside(p.failedEmail.period) });
  await mail("keep", { status: "pending", createdAt: longAgo });

  await eachSideOf(p.session.period, async (expect, expiresAt) => {
    const id = randomUUID();
    await db.insert(session).values({ id, token: `t-${id}`, userId: applicantId, expiresAt });
    s[expect].add(`session:${id}`);
  });
  await eachSideOf(p.verificationToken.period, async (expect, expiresAt) => {
    const id = randomUUID();
    await db.insert(verification).values({ id, identifier: `reset-password:${id}`, value: applicantId, expiresAt });
    s[expect].add(`verification:${id}`);
  });
  await eachSideOf(p.emailCode.period, async (expect, expiresAt) => {
    const [row] = await db
      .insert(emailVerificationCodes)
      .values({ email: "new@example.com", codeHash: "h", expiresAt })
      .returning({ id: emailVerificationCodes.id });
    s[expect].add(`code:${row!.id}`);
  });
  await eachSideOf(p.rateLimitCounter.period, async (expect, at) => {
    const key = `contact:ip:${randomUUID()}`;
    await db.insert(rateLimitHits).values({ key, windowStart: at, count: 1 });
    await db.insert(rateLimit).values({ id: randomUUID(), key, count: 1, lastRequest: at.getTime() });
    s[expect].add(`hits:${key}`);
    s[expect].add(`ratelimit:${key}`);
  });
  for (const [expect, expiresAt] of [
    ["keep", new Date(NOW.getTime() - 30 * 60 * 1000)],
    ["go", new Date(NOW.getTime() - 2 * 60 * 60 * 1000)],
  ] as const) {
    const [row] = await db
      .insert(webauthnChallenges)
      .values({ challenge: randomUUID(), purpose: "authenticate", expiresAt })
      .returning({ id: webauthnChallenges.id });
    s[expect].add(`challenge:${row!.id}`);
  }
  await eachSideOf(p.achFile.period, async (expect, createdAt) => {
    const [row] = await db
      .insert(achBatches)
      .values({ createdAt, entryCount: 1, totalCents: 100, fileName: `ach-${expect}`, effectiveDate: "2025-01-02", content: "enc:v1:AAAA" })
      .returning({ id: achBatches.id });
    s[expect].add(`achfile:${row!.id}`);
  });
  for (const [expect, day] of [
    ["keep", NOW.toISOString().slice(0, 10)],
    ["go", "2031-03-01"],
  ] as const) {
    const dfi = String(10_000_000 + Math.floor(Math.random() * 89_999_999));
    await db.insert(achTraceSequences).values({ originatingDfi: dfi, day, lastSequence: 3 });
    s[expect].add(`trace:${dfi}:${day}`);
  }
  return s;
}

/** Every seeded record still present, under the same names seed() gave them. */
async function present(db: Db): Promise<Set<string>> {
  const out = new Set<string>();
  for (const r of await db.select({ id: loanApplications.id }).from(loanApplications)) out.add(`application:${r.id}`);
  for (const r of await db.select({ id: contactMessages.id }).from(contactMessages)) out.add(`contact:${r.id}`);
  for (const r of await db.select({ id: emailOutbox.id }).from(emailOutbox)) out.add(`mail:${r.id}`);
  for (const r of await db.select({ id: session.id }).from(session)) out.add(`session:${r.id}`);
  for (const r of await db.select({ id: verification.id }).from(verification)) out.add(`verification:${r.id}`);
  for (const r of await db.select({ id: emailVerificationCodes.id }).from(emailVerificationCodes)) out.add(`code:${r.id}`);
  for (const r of await db.select({ key: rateLimitHits.key }).from(rateLimitHits)) out.add(`hits:${r.key}`);
  for (const r of await db.select({ key: rateLimit.key }).from(rateLimit)) out.add(`ratelimit:${r.key}`);
  for (const r of await db.select({ id: webauthnChallenges.id }).from(webauthnChallenges)) out.add(`challenge:${r.id}`);
  for (const r of await db.select({ id: achBatches.id }).from(achBatches)) out.add(`achfile:${r.id}`);
  for (const r of await db.select({ dfi: achTraceSequences.originatingDfi, day: achTraceSequences.day }).from(achTraceSequences)) out.add(`trace:${r.dfi}:${r.day}`);
  return out;
}

const EXPECTED: DisposalCounts = {
  applications: 4,
  documents: 4,
  agreements: 0,
  bankAccounts: 4,
  approvedLoans: 1,
  contactMessages: 1,
  sentEmails: 1,
  failedEmails: 1,
  sessions: 1,
  verificationTokens: 1,
  emailCodes: 1,
  rateLimitCounters: 2,
  dataExports: 0,
  closedAccounts: 0,
  applicationDrafts: 0,
  webauthnChallenges: 1,
  achFiles: 1,
  achTraceSequences: 1,
};

async function disposalAudits(db: Db) {
  return db.select().from(auditLog).where(eq(auditLog.action, "records.dispose")).orderBy(desc(auditLog.id));
}

describe.each(testTargets)("disposal job on %s", (target) => {
  const database = useTestDatabase({ target });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-retention-"));
  dirs.push(dir);
  const storage = createLocalStorage(dir);
  let seeded: Seeded;

  beforeAll(async () => {
    seeded = await seed(database().db, storage);
  });

  it("a dry run counts what would go and deletes nothing (no audit row either)", async () => {
    const db = database().db;
    const before = await present(db);
    const result = await disposeExpiredRecords({ db, storage, now: NOW, dryRun: true });
    expect(result).toMatchObject({ dryRun: true, ran: true, counts: EXPECTED, filesRemoved: 0 });
    expect([...result.files].sort()).toEqual([...seeded.goFiles].sort());
    expect(await present(db)).toEqual(before);
    for (const key of seeded.goFiles) expect(await storage.exists(key)).toBe(true);
    expect(await disposalAudits(db)).toHaveLength(0);
  });

  it("deletes the records just outside their period with their files, keeps those just inside, writes one audit row", async () => {
    const db = database().db;
    const result = await disposeExpiredRecords({ db, storage, now: NOW });
    expect(result).toMatchObject({ dryRun: false, ran: true, counts: EXPECTED, filesRemoved: 4, filesFailed: [] });

    const left = await present(db);
    for (const name of seeded.keep) expect(left.has(name), `${name} kept`).toBe(true);
    for (const name of seeded.go) expect(left.has(name), `${name} disposed`).toBe(false);
    for (const key of seeded.goFiles) expect(await storage.exists(key), key).toBe(false);
    for (const key of seeded.keepFiles) expect(await storage.exists(key), key).toBe(true);
    const goneIds = [...seeded.go].filter((n) => n.startsWith("application:")).map((n) => n.slice("application:".length));
    expect(await db.select().from(loanDocuments).where(inArray(loanDocuments.applicationId, goneIds))).toHaveLength(0);
    expect(await db.select().from(bankAccounts).where(inArray(bankAccounts.applicationId, goneIds))).toHaveLength(0);

    const audits = await disposalAudits(db);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ actorId: null, action: "records.dispose" });
    expect(audits[0]!.details).toMatchObject({ counts: EXPECTED, files: 4, clock: NOW.toISOString() });
    expect([...(audits[0]!.details.applicationIds as string[])].sort()).toEqual([...goneIds].sort());
  });

  it("a second run finds nothing more and still leaves its audit row", async () => {
    const db = database().db;
    const result = await disposeExpiredRecords({ db, storage, now: NOW });
    expect(Object.values(result.counts).every((n) => n === 0)).toBe(true);
    const audits = await disposalAudits(db);
    expect(audits).toHaveLength(2);
    expect(audits[0]!.details).toMatchObject({ files: 0, applicationIds: [] });
  });

  it("rows go even when a file cannot be removed; the file is reported for the orphan sweep", async () => {
    const db = database().db;
    await seed(db, storage);
    const failing: DocumentStorage = { ...storage, describe: "failing", delete: async () => Promise.reject(new Error("disk unplugged")) };
    const lines: string[] = [];
    const result = await disposeExpiredRecords({ db, storage: failing, now: NOW, log: (l) => lines.push(l) });
    expect(result.counts.applications).toBe(4);
    expect(result.filesRemoved).toBe(0);
    expect(result.filesFailed.sort()).toEqual(result.files.sort());
    expect(lines.join("\n")).toMatch(/disk unplugged.*orphan sweep/);
    const ids = (await db.select({ id: loanApplications.id }).from(loanApplications)).map((r) => r.id);
    expect(ids).toHaveLength(5 + 5); // the kept five from each seeding
    for (const key of result.files) expect(await storage.exists(key)).toBe(true);
  });

  it("the daily job runs on its schedule, logs and stops", async () => {
    const db = database().db;
    const before = (await disposalAudits(db)).length;
    const lines: string[] = [];
    const job = startRetentionJob({ db, storage, log: (l) => lines.push(l), firstRunDelayMs: 10, intervalMs: 60_000, now: () => NOW });
    const deadline = Date.now() + 20_000;
    while (lines.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await job.stop();
    expect(lines[0]).toMatch(/^\[retention\] /);
    expect((await disposalAudits(db)).length).toBe(before + 1);
  });

  if (target === "postgres") {
    it("another instance holding the run makes this one skip", async () => {
      const db = database().db;
      await seed(db, storage);
      const other = new pg.Client({ connectionString: database().url });
      await other.connect();
      try {
        await other.query("begin");
        await other.query("select pg_advisory_xact_lock(724199302)");
        const result = await disposeExpiredRecords({ db, storage, now: NOW });
        expect(result).toMatchObject({ ran: false, files: [] });
        expect(Object.values(result.counts).every((n) => n === 0)).toBe(true);
        await other.query("rollback");
      } finally {
        await other.end();
      }
      const result = await disposeExpiredRecords({ db, storage, now: NOW });
      expect(result.counts.applications).toBe(4);
    });
  }
});
