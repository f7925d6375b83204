/**
 * The outbox worker against a real SMTP server (tests/helpers/smtp-sink.ts): delivery, rollback,
 * outage and recovery, concurrent workers (exactly-once), giving up after maxAttempts.
 * Runs on PGlite, and on PostgreSQL too when TEST_DATABASE_URL is set.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "~/server/platform/db/client.server";
import { emailOutbox } from "~/server/platform/db/schema.server";
import { enqueueEmail } from "~/server/platform/mail/outbox.server";
import { contactMessageEmail, verificationCodeEmail } from "~/server/platform/mail/templates.server";
import { createSmtpTransport } from "~/server/platform/mail/transports.server";
import { startMailWorker, type MailWorker, type MailWorkerOptions } from "~/server/platform/mail/worker.server";
import { startSmtpSink, type SmtpSink } from "../helpers/smtp-sink";
import { testTargets, useTestDatabase } from "../helpers/test-db";

const FROM = "Private Loans <no-reply@privateloans.test>";
const RETRY_LATER_MS = 60 * 60_000; // backoff in these tests: far enough that nothing retries by itself

describe.each(testTargets)("SMTP delivery on %s", (target) => {
  const getDatabase = useTestDatabase({ target });
  let sink: SmtpSink;
  const workers: MailWorker[] = [];
  let logLines: string[] = [];

  function worker(options: Partial<MailWorkerOptions> = {}): MailWorker {
    const w = startMailWorker({
      db: getDatabase().db,
      transport: createSmtpTransport(sink.url, { timeoutMs: 3000 }),
      from: FROM,
      poll: false,
      backoffMs: () => RETRY_LATER_MS,
      logger: { info: (l) => logLines.push(l), error: (l) => logLines.push(l) },
      ...options,
    });
    workers.push(w);
    return w;
  }

  async function rows() {
    return getDatabase().db.select().from(emailOutbox).orderBy(emailOutbox.createdAt);
  }

  async function makeDueNow() {
    await getDatabase().db.update(emailOutbox).set({ nextAttemptAt: sql`now()` }).where(eq(emailOutbox.status, "pending"));
  }

  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(async () => {
    await sink.close();
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    await sink.start();
    sink.rejectWith(false);
    sink.clear();
    logLines = [];
    await getDatabase().db.delete(emailOutbox);
  });

  it("sends a message enqueued in a transaction, with the right From, To, Subject and body", async () => {
    const { db } = getDatabase();
    await db.transaction(async (tx) => {
      await enqueueEmail(tx, { to: "new.user@example.com", ...verificationCodeEmail({ code: "314159" }) });
    });
    expect(await worker().drainOnce()).toBe(1);

    expect(sink.messages).toHaveLength(1);
    const mail = sink.messages[0]!;
    expect(mail.envelopeFrom).toBe("no-reply@privateloans.test");
    expect(mail.envelopeTo).toEqual(["new.user@example.com"]);
    expect(mail.from).toBe("Private Loans <no-reply@privateloans.test>");
    expect(mail.to).toBe("new.user@example.com");
    expect(mail.subject).toBe("Your Private Loans verification code");
    expect(mail.text).toContain("314159");
    expect(mail.text).toContain("valid for 10 minutes");
    expect(mail.html).toContain("314159");

    const [row] = await rows();
    expect(row).toMatchObject({ status: "sent", attempts: 1, lastError: null, lockedUntil: null });
  });

  it("decodes non-ASCII and long lines end to end (subject encoding, quoted-printable)", async () => {
    const { db } = getDatabase();
    const message = `Bonjour — I'd like a quote for a café renovation. ${"Lorem ipsum dolor sit amet. ".repeat(10)}`;
    await enqueueEmail(db, {
      to: "loans@privateloans.test",
      ...contactMessageEmail({ name: "Zoë Ünal", email: "zoe@example.com", phone: null, subject: "Café — renovation", message }),
    });
    await worker().drainOnce();
    expect(sink.messages).toHaveLength(1);
    expect(sink.messages[0]!.subject).toBe("Contact form: Café — renovation");
    expect(sink.messages[0]!.text).toContain(message.trim().split("\n")[0]!.slice(0, 60));
    expect(sink.messages[0]!.text).toContain("Zoë Ünal");
  });

  it("sends nothing for a rolled-back transaction", async () => {
    const { db } = getDatabase();
    await expect(
      db.transaction(async (tx) => {
        await enqueueEmail(tx, { to: "ghost@example.com", ...verificationCodeEmail({ code: "000000" }) });
        throw new Error("sign-up failed");
      }),
    ).rejects.toThrow("sign-up failed");
    expect(await worker().drainOnce()).toBe(0);
    expect(sink.messages).toHaveLength(0);
    expect(await rows()).toHaveLength(0);
  });

  it("keeps the message through an SMTP outage and sends it exactly once when the server is back", async () => {
    const { db } = getDatabase();
    await enqueueEmail(db, { to: "patient@example.com", ...verificationCodeEmail({ code: "271828" }) });
    await sink.stop();

    const w = worker();
    const started = Date.now();
    expect(await w.drainOnce()).toBe(1);
    expect(Date.now() - started).toBeLessThan(3000); // a refused connection fails fast

    const [afterFailure] = await rows();
    expect(afterFailure).toMatchObject({ status: "pending", attempts: 1, lockedUntil: null });
    expect(afterFailure!.lastError).toMatch(/ECONNREFUSED|ECONNECTION|ESOCKET/);
    expect(afterFailure!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 30 * 60_000);

    // Not due yet: nothing happens even though the server is back.
    await sink.start();
    expect(await w.drainOnce()).toBe(0);
    expect(sink.messages).toHaveLength(0);

    await makeDueNow();
    expect(await w.drainOnce()).toBe(1);
    expect(await w.drainOnce()).toBe(0);
    expect(sink.messages).toHaveLength(1);
    expect(sink.messages[0]!.text).toContain("271828");
    const [afterRecovery] = await rows();
    expect(afterRecovery).toMatchObject({ status: "sent", attempts: 2, lastError: null });
  });

  it("hands back the rest of a batch untried when the server is down", async () => {
    const { db } = getDatabase();
    for (let i = 0; i < 4; i++) await enqueueEmail(db, { to: `u${i}@example.com`, template: "t", subject: `n${i}`, text: "x" });
    await sink.stop();
    expect(await worker({ batchSize: 10 }).drainOnce()).toBe(1);
    const all = await rows();
    expect(all.every((r) => r.status === "pending")).toBe(true);
    expect(all.map((r) => r.attempts).sort()).toEqual([0, 0, 0, 1]);
    expect(all.every((r) => r.nextAttemptAt.getTime() > Date.now() + 30 * 60_000)).toBe(true);
  });

  it("retries a message the server refuses and marks it failed after maxAttempts", async () => {
    const { db } = getDatabase();
    await enqueueEmail(db, { to: "bounce@example.com", ...verificationCodeEmail({ code: "999999" }) });
    sink.rejectWith({ code: 451, message: "Requested action aborted: local error" });
    const w = worker({ maxAttempts: 3 });

    for (let attempt = 1; attempt <= 3; attempt++) {
      expect(await w.drainOnce()).toBe(1);
      const [row] = await rows();
      expect(row!.attempts).toBe(attempt);
      expect(row!.lastError).toContain("451");
      expect(row!.status).toBe(attempt < 3 ? "pending" : "failed");
      await makeDueNow();
    }
    expect(await w.drainOnce()).toBe(0);
    expect(sink.messages).toHaveLength(0);
    expect(logLines.some((l) => /giving up on message .* after 3 attempts/.test(l))).toBe(true);
    expect(logLines.join("\n")).not.toContain("bounce@example.com"); // logs carry ids, not addresses
  });

  it("never gives up during an outage: past maxAttempts the message still waits", async () => {
    const { db } = getDatabase();
    await enqueueEmail(db, { to: "waiting@example.com", template: "t", subject: "s", text: "x" });
    await sink.stop();
    const w = worker({ maxAttempts: 2 });
    for (let i = 0; i < 3; i++) {
      await w.drainOnce();
      await makeDueNow();
    }
    const [row] = await rows();
    expect(row).toMatchObject({ status: "pending", attempts: 3 });
    await sink.start();
    await w.drainOnce();
    expect(sink.messages).toHaveLength(1);
  });

  it("re-sends a message whose worker died mid-send once its lease has expired", async () => {
    const { db } = getDatabase();
    const [row] = await db
      .insert(emailOutbox)
      .values({
        toAddress: "orphan@example.com",
        template: "t",
        subject: "orphaned",
        textBody: "x",
        status: "sending",
        attempts: 1,
        lockedUntil: sql`now() - interval '1 second'`,
      })
      .returning();
    await db.insert(emailOutbox).values({
      toAddress: "leased@example.com",
      template: "t",
      subject: "still leased",
      textBody: "x",
      status: "sending",
      attempts: 1,
      lockedUntil: sql`now() + interval '1 minute'`,
    });
    expect(await worker().drainOnce()).toBe(1);
    expect(sink.messages.map((m) => m.subject)).toEqual(["orphaned"]);
    const [after] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, row!.id));
    expect(after).toMatchObject({ status: "sent", attempts: 2 });
  });

  describe("several workers draining at once", () => {
    const extra: Database[] = [];
    afterEach(async () => {
      await Promise.all(extra.splice(0).map((d) => d.close()));
    });

    it("send every message exactly once", async () => {
      const { db } = getDatabase();
      const count = 40;
      for (let i = 0; i < count; i++) {
        await db.transaction(async (tx) => {
          await enqueueEmail(tx, { to: `user${i}@example.com`, template: "t", subject: `message ${i}`, text: `body ${i}` });
        });
      }
      // On PostgreSQL every extra worker gets its own pool, like another server instance; on PGlite
      // they share the one connection (several workers in one process).
      const t = getDatabase();
      const handles = [db];
      for (let i = 0; i < 2; i++) {
        if (t.target === "postgres") {
          const other = await openDatabase({ databaseUrl: t.url!, poolSize: 2 });
          extra.push(other);
          handles.push(other.db);
        } else {
          handles.push(db);
        }
      }
      const all = handles.map((handle) => worker({ batchSize: 2, db: handle }));

      const drain = async (w: MailWorker) => {
        let total = 0;
        for (let n = await w.drainOnce(); n > 0; n = await w.drainOnce()) total += n;
        return total;
      };
      const counts = await Promise.all(all.map(drain));

      expect(sink.messages).toHaveLength(count);
      expect(new Set(sink.messages.map((m) => m.subject)).size).toBe(count);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(count);
      const stored = await rows();
      expect(stored.every((r) => r.status === "sent" && r.attempts === 1)).toBe(true);
      if (target === "postgres") {
        // The instances really did share the work (claims interleave, 2 messages at a time).
        expect(counts.filter((n) => n > 0).length).toBeGreaterThan(1);
      }
    });
  });
});
