import { and, inArray, like, or } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpOverHttp } from "../helpers/applicants";
import { openDatabase, type Database } from "~/server/platform/db/client.server";
import { emailOutbox } from "~/server/platform/db/schema.server";
import type { SmtpSink } from "../helpers/smtp-sink";
import { createScratchPostgresDatabase, TEST_DATABASE_URL } from "../helpers/test-db";
import { testSecrets, type TestServer } from "./harness";
import { startServerWithMail, stopStack } from "./helpers/stack";
import { solveCaptcha } from "../helpers/applicants";
import { submitOverHttp } from "./helpers/submissions";

/**
 * The mail server is down for a while. Sign-up codes and application e-mails wait in the outbox (the
 * pages answer as usual), then go out once it is back, each exactly once. On PostgreSQL, so the test
 * can read the outbox while the server runs.
 */

const LENDER = "lender-desk@example.com";
const PASSWORD = "Str0ng!Passw0rd";

describe.runIf(TEST_DATABASE_URL)("SMTP server down, then back", () => {
  let sink: SmtpSink;
  let server: TestServer;
  let scratch: Awaited<ReturnType<typeof createScratchPostgresDatabase>>;
  let database: Database;

  beforeAll(async () => {
    scratch = await createScratchPostgresDatabase();
    ({ sink, server } = await startServerWithMail({
      ...testSecrets(),
      DATABASE_URL: scratch.url,
      LENDER_NOTIFY_EMAIL: LENDER,
      TRUST_PROXY: "true",
      MAIL_RETRY_BASE_MS: "300",
    }));
    database = await openDatabase({ databaseUrl: scratch.url, poolSize: 2 });
  });
  afterAll(async () => {
    await database?.close();
    await stopStack({ sink, server });
    await scratch?.drop();
  });

  it("keeps the code and the notifications in the outbox, then delivers each exactly once", { timeout: 120_000 }, async () => {
    const base = server.url;
    const applicant = `smtp-applicant-${Date.now()}@example.com`;
    const cookie = await signUpOverHttp(base, sink, applicant, "198.18.3.1");
    const newcomer = `smtp-newcomer-${Date.now()}@example.com`;

    await sink.stop();
    sink.clear();

    // The pages answer as they always do: the code "is sent", the application is received.
    const sendCode = await fetch(`${base}/auth`, {
      method: "POST",
      body: new URLSearchParams({ intent: "send-code", email: newcomer }),
      headers: { origin: base, "x-forwarded-for": "198.18.3.2" },
      redirect: "manual",
    });
    expect(sendCode.status).toBe(200);
    expect(await sendCode.text()).toContain(`We sent a 6-digit code to ${newcomer}`);
    const submitted = await submitOverHttp(base, cookie, "198.18.3.1", 16 * 1024);
    expect(submitted.status).toBe(201);

    // They wait: tried, failed at the connection, pending for a later try. (After a refused
    // connection the worker hands the rest of its batch back untried, so the first message carries
    // the attempts.)
    const ours = or(
      inArray(emailOutbox.toAddress, [newcomer]),
      and(inArray(emailOutbox.toAddress, [applicant, LENDER]), like(emailOutbox.textBody, `%${submitted.applicationId}%`)),
    );
    await expect
      .poll(async () => Math.max(0, ...(await database.db.select().from(emailOutbox).where(ours)).map((m) => m.attempts)), { timeout: 30_000 })
      .toBeGreaterThanOrEqual(3);
    const waiting = await database.db.select().from(emailOutbox).where(ours);
    expect(waiting).toHaveLength(3);
    for (const message of waiting) expect(["pending", "sending"]).toContain(message.status);
    expect(waiting.some((m) => /ECONNREFUSED|ECONNECTION/.test(m.lastError ?? ""))).toBe(true);
    expect(sink.messages).toEqual([]); // the port is closed: nothing can have arrived

    // Back on the same port: everything goes out.
    await sink.start();
    const relevant = () =>
      sink.messages.filter((m) => m.envelopeTo.includes(newcomer) || m.text.includes(submitted.applicationId!));
    await expect.poll(() => relevant().length, { timeout: 60_000 }).toBeGreaterThanOrEqual(3);
    // More worker cycles pass; nothing is sent twice.
    await new Promise((r) => setTimeout(r, 3000));
    const delivered = relevant().map((m) => `${m.envelopeTo.join(",")} | ${m.subject}`).sort();
    console.log(`[smtp down] attempts before the sink came back: ${waiting.map((m) => m.attempts).join(", ")}; delivered: ${delivered.join("; ")}`);
    expect(delivered).toHaveLength(3);
    expect(new Set(delivered).size).toBe(3);
    expect(relevant().map((m) => m.envelopeTo[0]).sort()).toEqual([applicant, LENDER, newcomer].sort());
    // Nothing at all arrived twice.
    const all = sink.messages.map((m) => `${m.envelopeTo.join(",")} | ${m.subject} | ${m.text}`);
    expect(new Set(all).size).toBe(all.length);
    const after = await database.db.select().from(emailOutbox).where(ours);
    expect(after.map((m) => m.status)).toEqual(["sent", "sent", "sent"]);

    // The delayed code still works: the newcomer creates the account with it.
    const code = /\b(\d{6})\b/.exec(sink.messages.find((m) => m.envelopeTo.includes(newcomer))!.text)![1]!;
    const signUp = await fetch(`${base}/auth`, {
      method: "POST",
      body: new URLSearchParams({ intent: "sign-up", fullName: "Late Mail", email: newcomer, code, password: PASSWORD, captcha: await solveCaptcha(base) }),
      headers: { origin: base, "x-forwarded-for": "198.18.3.2" },
      redirect: "manual",
    });
    expect(signUp.status).toBe(302);
  });
});
