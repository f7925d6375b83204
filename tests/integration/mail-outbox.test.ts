import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loader as mailboxLoader } from "~/routes/dev/mailbox";
import { loadConfig, setConfig } from "~/server/platform/config.server";
import { emailOutbox } from "~/server/platform/db/schema.server";
import { getMailboxMessage, listMailbox } from "~/server/platform/mail/mailbox.server";
import { enqueueEmail, notifyMailWorker } from "~/server/platform/mail/outbox.server";
import {
  applicationApprovedEmail,
  applicationDeniedEmail,
  applicationNotificationEmail,
  applicationReceivedEmail,
  contactMessageEmail,
  counterofferEmail,
  escapeHtml,
  passwordChangedEmail,
  passwordResetEmail,
  verificationCodeEmail,
  type RenderedEmail,
} from "~/server/platform/mail/templates.server";
import { answerRejectedEmail, documentsRequestedEmail } from "~/server/conversation/request-emails.server";
import { createLocalMailboxTransport, createMailTransport, redactSmtpUrl } from "~/server/platform/mail/transports.server";
import { describeMailError, startMailWorker, type MailWorker } from "~/server/platform/mail/worker.server";
import { openTestDatabase, testTargets, useTestDatabase } from "../helpers/test-db";

const BASE = "https://loans.example";
const EVIL = `<script>alert("x")</script>`;

const quietLogger = () => {
  const lines: string[] = [];
  return { lines, logger: { info: (l: string) => lines.push(l), error: (l: string) => lines.push(l) } };
};

function allTemplates(value: string): RenderedEmail[] {
  return [
    passwordChangedEmail({ name: value, baseUrl: BASE }),
    applicationReceivedEmail({ applicantName: value, loanType: value, requestedAmountCents: 5_000_000, applicationId: value, baseUrl: BASE }),
    applicationNotificationEmail({
      applicantName: value,
      applicantEmail: value,
      loanType: value,
      requestedAmountCents: 25_000_000,
      purpose: value,
      employmentStatus: value,
      applicationId: value,
      baseUrl: BASE,
    }),
    applicationApprovedEmail({ applicantName: value, loanType: value, approvedAmount: 120000, applicationId: value, baseUrl: BASE }),
    applicationDeniedEmail({ applicantName: value, loanType: value, applicationId: value, reasons: [value], baseUrl: BASE }),
    applicationDeniedEmail({
      applicantName: value,
      loanType: value,
      applicationId: value,
      reasons: [value],
      source: {
        kind: "consumer_report",
        agency: { name: value, address: value, phone: value },
        score: { score: 600, rangeLow: 300, rangeHigh: 850, scoreDate: "2026-11-20", keyFactors: [value], inquiriesFactor: false },
      },
      baseUrl: BASE,
    }),
    answerRejectedEmail({ applicantName: value, kind: "pay_stub", reason: value, dueDate: "2026-12-31", applicationId: "a", baseUrl: BASE, today: "2026-12-05" }),
    documentsRequestedEmail({ applicantName: value, kinds: ["pay_stub", "question"], dueDate: "2026-12-31", applicationId: "a", baseUrl: BASE }),
    counterofferEmail({
      applicantName: value,
      loanType: value,
      applicationId: value,
      baseUrl: BASE,
      requested: { amount: 18_000, ratePercent: 9.5, termMonths: 36 },
      offered: { amount: 15_000, ratePercent: 9.5, termMonths: 36 },
    }),
    contactMessageEmail({ name: value, email: value, phone: value, subject: value, message: value }),
  ];
}

describe("templates", () => {
  it("escape every interpolated value in the HTML body and keep it readable in the text body", () => {
    for (const email of allTemplates(EVIL)) {
      expect(email.html, email.template).not.toContain("<script>");
      expect(email.html, email.template).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
      expect(email.text, email.template).toContain(EVIL);
      expect(email.subject, email.template).not.toMatch(/[\r\n]/);
      expect(email.html, email.template).toContain("Private Loans");
      expect(email.html, email.template).toContain("Your Trusted Private Lending Partner");
      expect(email.text, email.template).toContain("Your Trusted Private Lending Partner");
    }
  });

  it("keep line breaks out of subjects (no header injection)", () => {
    const email = contactMessageEmail({ name: "A", email: "a@example.com", subject: "Hi\r\nBcc: victim@example.com", message: "m" });
    expect(email.subject).toBe("Contact form: Hi Bcc: victim@example.com");
  });

  it("escapeHtml covers the five special characters", () => {
    expect(escapeHtml(`&<>"'`)).toBe("&amp;&lt;&gt;&quot;&#39;");
  });

  it("verification code: the 6 digits and the 10-minute validity", () => {
    const email = verificationCodeEmail({ code: "042917" });
    expect(email.template).toBe("verification-code");
    expect(email.text).toContain("042917");
    expect(email.html).toContain("042917");
    expect(email.text).toContain("10 minutes");
    expect(email.subject).not.toContain("042917");
    expect(() => verificationCodeEmail({ code: "12345" })).toThrow();
    expect(() => verificationCodeEmail({ code: "<b>123456</b>" })).toThrow();
  });

  it("password reset: the link, 1 hour, and 'ignore if you did not ask'", () => {
    const url = "https://loans.example/auth?reset=abc&x=1";
    const email = passwordResetEmail({ resetUrl: url });
    expect(email.text).toContain(url);
    expect(email.html).toContain('href="https://loans.example/auth?reset=abc&amp;x=1"');
    expect(email.text).toContain("1 hour");
    expect(email.text).toMatch(/didn't ask.*ignore/i);
    expect(() => passwordResetEmail({ resetUrl: "javascript:alert(1)" })).toThrow();
  });

  it("application e-mails: amounts in dollars, links from the base URL, contact within 24-48 hours", () => {
    const received = applicationReceivedEmail({
      applicantName: "Jane Doe",
      loanType: "business",
      requestedAmountCents: 15_000_000,
      applicationId: "app-1",
      baseUrl: `${BASE}/`,
    });
    expect(received.text).toContain("24-48 hours");
    expect(received.text).toContain("$150,000.00");
    expect(received.text).toContain(`${BASE}/dashboard`);

    const approved = applicationApprovedEmail({
      applicantName: "Jane Doe",
      loanType: "personal",
      approvedAmount: 25000,
      applicationId: "app-2",
      baseUrl: BASE,
    });
    expect(approved.text).toContain("$25,000.00");
    expect(approved.text).toContain("Personal Loan");
    expect(approved.html).toContain(`href="${BASE}/dashboard/applications/app-2"`);
    expect(approved.text).toContain("Review and Sign");

    const notify = applicationNotificationEmail({
      applicantName: "Jane Doe",
      applicantEmail: "jane@example.com",
      loanType: "hard-money",
      requestedAmountCents: 100_000_000,
      purpose: "Bridge financing for a property purchase",
      employmentStatus: "self-employed",
      applicationId: "app-3",
      baseUrl: BASE,
    });
    for (const needle of ["Jane Doe", "jane@example.com", "Hard Money", "$1,000,000.00", "Bridge financing", "Self-employed", "app-3"]) {
      expect(notify.text).toContain(needle);
    }
    expect(notify.text).toContain(`${BASE}/admin`);
  });

  it("denial: the reasons, the right to a statement of reasons and the ECOA notice", () => {
    const email = applicationDeniedEmail({
      applicantName: "Jane Doe",
      loanType: "private",
      applicationId: "app-4",
      reasons: ["Insufficient collateral", "Debt-to-income ratio too high"],
      decisionDate: new Date("2026-03-05T12:00:00Z"),
      baseUrl: BASE,
    });
    expect(email.template).toBe("application-denied");
    expect(email.text).toContain("  - Insufficient collateral");
    expect(email.html).toContain("<li>Debt-to-income ratio too high</li>");
    expect(email.text).toContain("Mar 5, 2026");
    expect(email.text).toMatch(/right to a statement of the specific reasons/);
    expect(email.text).toMatch(/Equal Credit Opportunity Act prohibits creditors from discriminating/);
    expect(email.text).toContain("Federal Trade Commission");

    const noReasons = applicationDeniedEmail({ applicantName: "J", loanType: "auto-loans", applicationId: "a", reasons: [], baseUrl: BASE });
    expect(noReasons.text).toMatch(/right to a statement of the specific reasons.*within 60 days.*within 30 days/s);
  });
});

describe("transports", () => {
  it("picks SMTP only when a URL is configured and never prints its password", () => {
    expect(createMailTransport({ smtpUrl: undefined }).describe).toMatch(/local mailbox/);
    const smtp = createMailTransport({ smtpUrl: "smtps://user:s3cret@smtp.example.com:465" });
    expect(smtp.describe).toContain("smtp.example.com:465");
    expect(smtp.describe).not.toContain("s3cret");
    expect(redactSmtpUrl("smtp://u:p@h:25")).toBe("smtp://u:***@h:25");
  });

  it("describeMailError removes credentials and truncates", () => {
    const text = describeMailError(Object.assign(new Error(`connect to smtp://bob:hunter2@mail:25 failed ${"x".repeat(800)}`), { code: "ECONNECTION" }));
    expect(text).not.toContain("hunter2");
    expect(text.startsWith("ECONNECTION: connect to smtp://***@mail:25")).toBe(true);
    expect(text.length).toBeLessThanOrEqual(500);
  });
});

describe.each(testTargets)("outbox on %s", (target) => {
  const getDatabase = useTestDatabase({ target });
  let worker: MailWorker | undefined;

  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
    await getDatabase().db.delete(emailOutbox);
  });

  it("enqueueEmail writes in the caller's transaction: commit keeps it, rollback drops it", async () => {
    const { db } = getDatabase();
    await db.transaction(async (tx) => {
      await enqueueEmail(tx, { to: "kept@example.com", ...verificationCodeEmail({ code: "111111" }) });
    });
    await expect(
      db.transaction(async (tx) => {
        await enqueueEmail(tx, { to: "dropped@example.com", ...verificationCodeEmail({ code: "222222" }) });
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    const rows = await db.select().from(emailOutbox);
    expect(rows.map((r) => r.toAddress)).toEqual(["kept@example.com"]);
    expect(rows[0]).toMatchObject({ status: "pending", attempts: 0, template: "verification-code" });
    expect(rows[0]!.htmlBody).toContain("111111");
  });

  it("enqueueEmail refuses lists, display names and header-breaking input", async () => {
    const { db } = getDatabase();
    const base = { template: "contact-message", subject: "s", text: "t" };
    for (const to of ["a@example.com, b@example.com", "Bob <bob@example.com>", "x@example.com\r\nBcc: y@example.com", "nobody"]) {
      await expect(enqueueEmail(db, { ...base, to })).rejects.toThrow(/one e-mail address/);
    }
    await expect(enqueueEmail(db, { ...base, to: "a@example.com", subject: "a\nb" })).rejects.toThrow(/subject/);
  });

  it("the local mailbox transport marks messages sent and keeps them in the table", async () => {
    const { db } = getDatabase();
    await enqueueEmail(db, { to: "new.user@example.com", ...verificationCodeEmail({ code: "123456" }) });
    const { logger } = quietLogger();
    worker = startMailWorker({ db, transport: createLocalMailboxTransport(), from: "Private Loans <no-reply@example.com>", poll: false, logger });
    expect(await worker.drainOnce()).toBe(1);
    expect(await worker.drainOnce()).toBe(0);
    const [row] = await db.select().from(emailOutbox);
    expect(row).toMatchObject({ status: "sent", attempts: 1, lockedUntil: null, lastError: null });
    expect(row!.sentAt).toBeInstanceOf(Date);
    expect(row!.textBody).toContain("123456");
  });

  it("the polling worker delivers soon after an enqueue, and stop() ends it", async () => {
    const { db } = getDatabase();
    const sent: string[] = [];
    const { logger } = quietLogger();
    worker = startMailWorker({
      db,
      transport: { describe: "memory", send: async (m) => void sent.push(m.to) },
      from: "x@example.com",
      intervalMs: 200,
      logger,
    });
    await db.transaction(async (tx) => {
      await enqueueEmail(tx, { to: "soon@example.com", template: "t", subject: "s", text: "t" });
    });
    notifyMailWorker(0);
    await expect.poll(() => sent, { timeout: 5000, interval: 20 }).toEqual(["soon@example.com"]);
    await worker.stop();
    await enqueueEmail(db, { to: "later@example.com", template: "t", subject: "s", text: "t" });
    await new Promise((r) => setTimeout(r, 400));
    expect(sent).toEqual(["soon@example.com"]);
    expect(await worker.drainOnce()).toBe(0);
  });

  it("mailbox query lists the newest first and reads one message by id", async () => {
    const { db } = getDatabase();
    const base = Date.parse("2026-01-01T00:00:00Z");
    for (let i = 0; i < 55; i++) {
      await db.insert(emailOutbox).values({
        toAddress: `user${i}@example.com`,
        subject: `Message ${i}`,
        textBody: `Body ${i}`,
        template: "contact-message",
        createdAt: new Date(base + i * 1000),
      });
    }
    const list = await listMailbox(db);
    expect(list).toHaveLength(50);
    expect(list[0]!.subject).toBe("Message 54");
    expect(list[49]!.subject).toBe("Message 5");
    expect(list[0]).not.toHaveProperty("textBody");
    const one = await getMailboxMessage(db, list[1]!.id);
    expect(one).toMatchObject({ subject: "Message 53", textBody: "Body 53", htmlBody: null });
    expect(await getMailboxMessage(db, "not-a-uuid")).toBeNull();
    expect(await getMailboxMessage(db, "00000000-0000-4000-8000-000000000000")).toBeNull();
  });
});

describe("a database that goes away", () => {
  it("does not crash the worker: it logs, keeps polling, and stops cleanly", async () => {
    const database = await openTestDatabase({ target: testTargets[0] });
    const { lines, logger } = quietLogger();
    const worker = startMailWorker({
      db: database.db,
      transport: createLocalMailboxTransport(),
      from: "x@example.com",
      intervalMs: 20,
      logger,
    });
    await new Promise((r) => setTimeout(r, 100));
    await database.cleanup();
    await expect.poll(() => lines.some((l) => l.includes("cannot read the outbox")), { timeout: 5000 }).toBe(true);
    await expect(worker.drainOnce()).rejects.toThrow();
    await worker.stop();
    expect(lines.filter((l) => l.includes("cannot read the outbox"))).toHaveLength(1);
  });
});

describe("/dev/mailbox loader", () => {
  const getDatabase = useTestDatabase({ global: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "mailbox-test-"));
  const call = (url: string, clientIp = "127.0.0.1") => mailboxLoader({ request: new Request(url), params: {}, context: { clientIp } } as never);

  afterEach(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("lists messages and shows the selected one outside production", async () => {
    setConfig(loadConfig({ NODE_ENV: "development", DATA_DIR: dataDir }));
    const { id } = await enqueueEmail(getDatabase().db, { to: "dev@example.com", ...verificationCodeEmail({ code: "123123" }) });
    const all = await call("http://localhost/dev/mailbox");
    expect(all.messages.map((m) => m.id)).toContain(id);
    expect(all.selected).toBeNull();
    const one = await call(`http://localhost/dev/mailbox?id=${id}`);
    expect(one.selected?.textBody).toContain("123123");
  });

  it("outside production, answers only a client on this machine (404 for any other address)", async () => {
    setConfig(loadConfig({ NODE_ENV: "development", DATA_DIR: dataDir }));
    for (const ip of ["203.0.113.9", "10.0.0.5", "::ffff:192.0.2.1"]) {
      const thrown = await call("http://localhost/dev/mailbox", ip).then(
        () => null,
        (error: unknown) => error,
      );
      expect(thrown, ip).toBeInstanceOf(Response);
      expect((thrown as Response).status, ip).toBe(404);
    }
    expect((await call("http://localhost/dev/mailbox", "::1")).messages).toBeDefined();
  });

  it("does not exist in production (404)", async () => {
    setConfig(
      loadConfig({
        NODE_ENV: "production",
        DATA_DIR: dataDir,
        APP_SECRET: randomBytes(32).toString("base64url"),
        ENCRYPTION_KEY: `v1:${randomBytes(32).toString("base64")}`,
      }),
    );
    let thrown: unknown;
    try {
      await call("http://localhost/dev/mailbox");
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(404);
  });

  it("does not exist on a deployment that brings its own secrets, even without NODE_ENV=production (404)", async () => {
    setConfig(loadConfig({ DATA_DIR: dataDir, APP_SECRET: randomBytes(32).toString("base64url") }));
    const thrown = await call("http://localhost/dev/mailbox").then(
      () => null,
      (error: unknown) => error,
    );
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(404);
  });
});
