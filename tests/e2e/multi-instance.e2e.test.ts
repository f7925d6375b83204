import { solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import { sql } from "drizzle-orm";
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpOverHttp } from "../helpers/applicants";
import { AUTH_MESSAGES } from "~/domain/validation/auth";
import { CAPTCHA_MESSAGES } from "~/domain/validation/captcha-messages";
import { CONTACT_MESSAGES } from "~/domain/validation/contact";
import { openDatabase, type Database } from "~/server/platform/db/client.server";
import { findMigrationsFolder } from "~/server/platform/db/migrate.server";
import { enqueueEmail } from "~/server/platform/mail/outbox.server";
import { THROTTLES } from "~/server/platform/security/throttle.server";
import { startSmtpSink, type SmtpSink } from "../helpers/smtp-sink";
import { createScratchPostgresDatabase, TEST_DATABASE_URL } from "../helpers/test-db";
import { startTestServer, testSecrets, type TestServer } from "./harness";

/**
 * Several identical instances on one PostgreSQL database, as production runs them: everything they
 * share (sessions, throttles, the mail outbox, used captchas) lives in the database, so it makes no
 * difference which instance a request reaches. Each instance signs its e-mail with its own MAIL_FROM,
 * so the SMTP sink can tell which one sent a message.
 */

const PASSWORD = "Str0ng!Passw0rd";
const TOO_MANY = /Too many attempts\. Please wait \d+ minutes? and try again\./;
const migrationCount = (
  JSON.parse(fs.readFileSync(path.join(findMigrationsFolder(), "meta", "_journal.json"), "utf8")) as { entries: unknown[] }
).entries.length;

type Reply = { status: number; location: string | null; text: string; sessionCookie: string | undefined };

async function post(server: TestServer, route: string, fields: Record<string, string>, ip: string, cookie = ""): Promise<Reply> {
  const res = await fetch(`${server.url}${route}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { origin: server.url, "x-forwarded-for": ip, ...(cookie ? { cookie } : {}) },
    redirect: "manual",
  });
  const sessionCookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .find((c) => c.includes("session_token") && !c.endsWith("="));
  return { status: res.status, location: res.headers.get("location"), text: await res.text(), sessionCookie };
}

async function dashboard(server: TestServer, cookie: string): Promise<{ status: number; location: string | null; text: string }> {
  const res = await fetch(`${server.url}/dashboard`, { headers: { cookie }, redirect: "manual" });
  return { status: res.status, location: res.headers.get("location"), text: await res.text() };
}

/** A solved ALTCHA payload for a challenge handed out by `server`, as the browser widget posts it. */
async function solvedCaptcha(server: TestServer): Promise<string> {
  const challenge = (await (await fetch(`${server.url}/api/captcha/challenge`)).json()) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey, timeout: 30_000 });
  return Buffer.from(JSON.stringify({ challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution })).toString(
    "base64",
  );
}

const root = path.resolve(import.meta.dirname, "../..");

/** `node server.js --migrate`: the migrate step as a container runs it, from the build. */
async function migrateFromBuild(env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-migrate-build-"));
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ["server.js", "--migrate"], {
      cwd: root,
      env: { ...process.env, NODE_ENV: "production", DATA_DIR: dataDir, ...env },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === "number" ? e.code : -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

describe.runIf(TEST_DATABASE_URL)("the migrate step from the build (node server.js --migrate)", () => {
  it("two at once on a fresh database: both succeed, one applies everything, a third finds nothing to do", async () => {
    const scratch = await createScratchPostgresDatabase();
    try {
      const env = { ...testSecrets(), DATABASE_URL: scratch.url };
      const runs = await Promise.all([migrateFromBuild(env), migrateFromBuild(env)]);
      expect(runs.map((r) => [r.code, r.stderr])).toEqual([
        [0, ""],
        [0, ""],
      ]);
      const applied = runs.map((r) => Number(/Applied (\d+) migration/.exec(r.stdout)?.[1] ?? 0)).sort();
      expect(applied).toEqual([0, migrationCount]);
      const again = await migrateFromBuild(env);
      expect(again.code).toBe(0);
      expect(again.stdout).toContain(`Nothing to apply: all ${migrationCount} migrations are already in`);
      // Like the server, it refuses production without its secrets rather than guessing.
      const noSecrets = await migrateFromBuild({ DATABASE_URL: scratch.url, APP_SECRET: "", ENCRYPTION_KEY: "" });
      expect(noSecrets.code).toBe(1);
      expect(noSecrets.stderr).toContain("APP_SECRET: required when NODE_ENV=production");
    } finally {
      await scratch.drop();
    }
  });
});

describe.runIf(TEST_DATABASE_URL)("several instances on one PostgreSQL database", () => {
  let sink: SmtpSink;
  let scratch: Awaited<ReturnType<typeof createScratchPostgresDatabase>>;
  let a: TestServer;
  let b: TestServer;
  let c: TestServer;
  let db: Database;
  const secrets = testSecrets();

  beforeAll(async () => {
    sink = await startSmtpSink();
    scratch = await createScratchPostgresDatabase();
    const env = { ...secrets, DATABASE_URL: scratch.url, SMTP_URL: sink.url, PWNED_PASSWORDS_URL: "off", TRUST_PROXY: "true" };
    // Three instances started at the same moment on an empty database: all of them migrate at start-up.
    const start = (name: string) => startTestServer({ ...env, MAIL_FROM: `Instance ${name} <${name.toLowerCase()}@instances.test>` });
    [a, b, c] = await Promise.all([start("A"), start("B"), start("C")]);
    db = await openDatabase({ databaseUrl: scratch.url, poolSize: 2 });
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop(), c?.stop()]);
    await db?.close();
    await scratch?.drop();
    await sink?.close();
  });

  it("three instances starting together on an empty database all come up, and each migration is applied once", async () => {
    for (const server of [a, b, c]) expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const result = (await db.db.execute(
      sql`select count(*)::int as n, count(distinct hash)::int as distinct_hashes from drizzle.__drizzle_migrations`,
    )) as unknown as { rows: { n: number; distinct_hashes: number }[] };
    expect(result.rows[0]).toEqual({ n: migrationCount, distinct_hashes: migrationCount });
    // Two instances are enough for the rest; the third only had to start.
    expect(await c.stop()).toBe(0);
  });

  it("a user signed in on A is signed in on B; signing out on B ends the session on A too", async () => {
    const cookie = await signUpOverHttp(a.url, sink, "dana@example.com", "198.18.7.1");
    expect(cookie).toContain("session_token");

    const onB = await dashboard(b, cookie);
    expect(onB.status).toBe(200);
    // React separates the text and the name with an empty comment.
    expect(onB.text.replace(/<!-- -->/g, "")).toContain("Welcome, Bench Applicant");
    // Not because B lets anyone in: without the cookie B sends to sign-in.
    const anonymous = await dashboard(b, "");
    expect(anonymous.status).toBe(302);
    expect(anonymous.location).toMatch(/^\/auth/);

    // A sign-in on B is likewise good on A.
    const signIn = await post(b, "/auth", { intent: "sign-in", email: "dana@example.com", password: PASSWORD, captcha: await solvedCaptcha(b) }, "198.18.7.1");
    expect(signIn.status).toBe(302);
    expect(signIn.sessionCookie).toBeDefined();
    expect((await dashboard(a, signIn.sessionCookie!)).status).toBe(200);

    const out = await post(b, "/auth/sign-out", {}, "198.18.7.1", cookie);
    expect(out.status).toBe(302);
    for (const server of [a, b]) {
      const after = await dashboard(server, cookie);
      expect(after.status).toBe(302);
      expect(after.location).toMatch(/^\/auth/);
    }
    // Only that session ended: the one opened on B is still good on A.
    expect((await dashboard(a, signIn.sessionCookie!)).status).toBe(200);
  });

  it("a rate limit counts across both instances: failed sign-ins alternating A and B trip it at the single-instance total", async () => {
    await signUpOverHttp(b.url, sink, "erin@example.com", "198.18.7.2");
    const limit = THROTTLES.signInPerAccountAndIp.limit;
    const ip = "198.18.7.3";
    const attempt = async (server: TestServer) =>
      post(server, "/auth", { intent: "sign-in", email: "erin@example.com", password: "Wrong!Passw0rd", captcha: await solvedCaptcha(server) }, ip);

    for (let i = 0; i < limit; i++) {
      const reply = await attempt(i % 2 === 0 ? a : b);
      expect(reply.status, `attempt ${i + 1}`).toBe(401);
      expect(reply.text).toContain(AUTH_MESSAGES.signInFailed);
    }
    // Each instance has seen only half of them; together they reached the limit.
    for (const server of [a, b]) {
      const refused = await attempt(server);
      expect(refused.status).toBe(429);
      expect(refused.text).toMatch(TOO_MANY);
    }
    // The right password is refused too while the limit lasts, on either instance.
    const right = await post(a, "/auth", { intent: "sign-in", email: "erin@example.com", password: PASSWORD, captcha: await solvedCaptcha(a) }, ip);
    expect(right.status).toBe(429);
    expect(right.sessionCookie).toBeUndefined();
  });

  it("a solved captcha used on A is refused on B", async () => {
    await signUpOverHttp(a.url, sink, "fay@example.com", "198.18.7.4");
    const signIn = (server: TestServer, captcha: string, ip: string) =>
      post(server, "/auth", { intent: "sign-in", email: "fay@example.com", password: PASSWORD, captcha }, ip);

    // B accepts a challenge A handed out (one APP_SECRET signs them all)...
    const fresh = await solvedCaptcha(a);
    const first = await signIn(b, fresh, "198.18.7.5");
    expect(first.status).toBe(302);
    expect(first.sessionCookie).toBeDefined();

    // ...and once a payload has been used on A, B refuses it, whatever else is right.
    const payload = await solvedCaptcha(a);
    const onA = await signIn(a, payload, "198.18.7.6");
    expect(onA.status).toBe(302);
    const replay = await signIn(b, payload, "198.18.7.7");
    expect(replay.status).toBe(400);
    expect(replay.text).toContain(CAPTCHA_MESSAGES.invalid);
    expect(replay.sessionCookie).toBeUndefined();
  });

  it("an e-mail queued once is sent once, with both instances' mail workers draining one outbox", async () => {
    const tag = `run-${Date.now().toString(36)}`;
    // Through the forms: contact messages and sign-up codes, half on each instance.
    const contacts = [a, b, a, b].map((server, i) => ({ server, subject: `Question ${i} ${tag}` }));
    for (const [i, { server, subject }] of contacts.entries()) {
      const reply = await post(
        server,
        "/contact",
        { name: "Gus Visitor", email: "gus@example.com", subject, message: `Hello from ${tag}, message ${i}.` },
        `198.18.7.${20 + i}`,
      );
      expect(reply.status).toBe(200);
      expect(reply.text).toContain(CONTACT_MESSAGES.success);
    }
    const codeAddresses = [a, b, a, b].map((server, i) => ({ server, to: `code-${i}-${tag}@example.com` }));
    for (const [i, { server, to }] of codeAddresses.entries()) {
      const reply = await post(server, "/auth", { intent: "send-code", email: to }, `198.18.7.${30 + i}`);
      expect(reply.status).toBe(200);
    }
    // A burst written straight to the outbox in one transaction: both workers poll for it at once.
    const bulk = Array.from({ length: 120 }, (_, i) => `bulk-${i}-${tag}@example.com`);
    await db.db.transaction(async (tx) => {
      for (const to of bulk) await enqueueEmail(tx, { to, template: "test", subject: `Bulk ${tag}`, text: `For ${to}` });
    });

    const isOurs = (m: { to: string; subject: string }) => m.to.includes(tag) || m.subject.includes(tag);
    const expected = contacts.length + codeAddresses.length + bulk.length;
    const deadline = Date.now() + 30_000;
    while (sink.messages.filter(isOurs).length < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    // A few more poll intervals (1 s each): a second copy of anything would arrive now.
    await new Promise((r) => setTimeout(r, 3000));

    const ours = sink.messages.filter(isOurs);
    const count = (predicate: (m: (typeof ours)[number]) => boolean) => ours.filter(predicate).length;
    for (const { subject } of contacts) expect(count((m) => m.subject.includes(subject)), subject).toBe(1);
    for (const { to } of codeAddresses) expect(count((m) => m.envelopeTo.includes(to)), to).toBe(1);
    for (const to of bulk) expect(count((m) => m.envelopeTo.includes(to)), to).toBe(1);
    expect(ours).toHaveLength(expected);

    // Both workers took part (so "once" was contested), and the outbox agrees: every row sent on the first try.
    const senders = new Set(ours.filter((m) => m.subject === `Bulk ${tag}`).map((m) => /Instance [AB]/.exec(m.from)?.[0]));
    expect([...senders].sort()).toEqual(["Instance A", "Instance B"]);
    const outbox = (await db.db.execute(
      sql`select status, attempts, count(*)::int as n from email_outbox
          where to_address like ${`%${tag}%`} or subject like ${`%${tag}%`} group by status, attempts`,
    )) as unknown as { rows: { status: string; attempts: number; n: number }[] };
    expect(outbox.rows).toEqual([{ status: "sent", attempts: 1, n: expected }]);
  });
});
