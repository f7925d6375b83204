import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpOverHttp } from "../helpers/applicants";
import { currentStep, totpAt } from "~/server/accounts/totp.server";
import { startSmtpSink, type SmtpSink } from "../helpers/smtp-sink";
import { createScratchPostgresDatabase, TEST_DATABASE_URL } from "../helpers/test-db";
import { startTestServer, type TestServer } from "./harness";
import { passAdminMfa, signInOverHttp, totpFor } from "../helpers/admins";

/** Staff must use a second factor before any admin data is served (16 CFR 314.4(c)(5)). */

const ADMIN = { email: "ada.admin@example.com", password: "Adm1n!Secret" };

describe("admin second factor", () => {
  let sink: SmtpSink;
  let server: TestServer;
  let secret: string;
  let backupCodes: string[];

  let dropDatabase: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    sink = await startSmtpSink();
    // On PostgreSQL when one is given: there the parallel burst below really runs in parallel
    // (PGlite is one connection and serializes it).
    const scratch = TEST_DATABASE_URL ? await createScratchPostgresDatabase() : undefined;
    dropDatabase = scratch?.drop;
    server = await startTestServer({
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
      SMTP_URL: sink.url,
      PWNED_PASSWORDS_URL: "off",
      TRUST_PROXY: "true",
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    });
  });
  afterAll(async () => {
    await server?.stop();
    await sink?.close();
    await dropDatabase?.();
  });

  const get = (path: string, cookie?: string) => fetch(`${server.url}${path}`, { headers: cookie ? { cookie } : {}, redirect: "manual" });

  it("sends a visitor to /auth and an applicant to / with 'Access denied'", async () => {
    expect((await get("/admin/mfa")).headers.get("location")).toMatch(/^\/auth\?redirectTo=/);
    const applicant = await signUpOverHttp(server.url, sink, "not.admin@example.com", "198.18.4.1");
    for (const path of ["/admin", "/admin/mfa", "/admin/clients"]) {
      const res = await get(path, applicant);
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/");
      expect(res.headers.getSetCookie().some((c) => c.startsWith("pl_toast="))).toBe(true);
    }
  });

  it("an admin without a verified second factor reaches no admin page until enrolled", async () => {
    const cookie = await signInOverHttp(server.url, ADMIN.email, ADMIN.password);
    for (const path of ["/admin", "/admin/clients", "/admin/documents", "/admin/monitoring", "/admin/security"]) {
      const res = await get(path, cookie);
      expect(res.status, path).toBe(302);
      expect(res.headers.get("location")).toBe(`/admin/mfa?redirectTo=${encodeURIComponent(path)}`);
    }
    const page = await (await get("/admin/mfa", cookie)).text();
    expect(page).toContain("Set up two-factor authentication");
    expect(page).toContain("QR code for your authenticator app");

    const wrong = await fetch(`${server.url}/admin/mfa`, {
      method: "POST",
      body: new URLSearchParams({ intent: "enrol", code: "000000", redirectTo: "/admin" }),
      headers: { cookie, origin: server.url },
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("That code is not valid");

    ({ secret, backupCodes } = await passAdminMfa(server.url, cookie));
    expect(backupCodes).toHaveLength(10);
    expect((await get("/admin", cookie)).status).toBe(200);
  });

  it("every new session must be verified again; a backup code works once", async () => {
    const cookie = await signInOverHttp(server.url, ADMIN.email, ADMIN.password, "198.18.9.2");
    expect((await get("/admin", cookie)).headers.get("location")).toBe("/admin/mfa?redirectTo=%2Fadmin");
    const page = await (await get("/admin/mfa", cookie)).text();
    expect(page).toContain("Authentication or Backup Code");
    expect(page).not.toContain(secret);

    const useBackup = (c: string) =>
      fetch(`${server.url}/admin/mfa`, {
        method: "POST",
        body: new URLSearchParams({ intent: "verify", code: backupCodes[0]!, redirectTo: "/admin" }),
        headers: { cookie: c, origin: server.url },
        redirect: "manual",
      });
    const first = await useBackup(cookie);
    expect(first.status).toBe(302);
    expect((await get("/admin", cookie)).status).toBe(200);

    const other = await signInOverHttp(server.url, ADMIN.email, ADMIN.password, "198.18.9.3");
    expect((await useBackup(other)).status).toBe(400);
    const { code } = totpFor(secret, Math.floor(Date.now() / 30_000));
    const viaTotp = await fetch(`${server.url}/admin/mfa`, {
      method: "POST",
      body: new URLSearchParams({ intent: "verify", code, redirectTo: "/admin" }),
      headers: { cookie: other, origin: server.url },
      redirect: "manual",
    });
    expect(viaTotp.status).toBe(302);
  });

  // Last: it leaves the factor locked. Issue 16: a burst used to have every code evaluated.
  it("60 parallel wrong codes over HTTP: five are evaluated, the rest and then the right code are refused as locked", async () => {
    const cookie = await signInOverHttp(server.url, ADMIN.email, ADMIN.password, "198.18.9.4");
    const verify = (code: string) =>
      fetch(`${server.url}/admin/mfa`, {
        method: "POST",
        body: new URLSearchParams({ intent: "verify", code, redirectTo: "/admin" }),
        headers: { cookie, origin: server.url },
        redirect: "manual",
      }).then(async (res) => ({ status: res.status, text: await res.text() }));
    const valid = new Set([-1, 0, 1, 2].map((d) => totpAt(secret, currentStep() + d)));
    const wrong = ["123456", "234567", "345678"].find((c) => !valid.has(c))!;

    const replies = await Promise.all(Array.from({ length: 60 }, () => verify(wrong)));
    expect(replies.every((r) => r.status === 400)).toBe(true);
    expect(replies.filter((r) => r.text.includes("That code is not valid")).length).toBe(5);
    expect(replies.filter((r) => r.text.includes("Too many wrong codes. Try again in 15 minutes.")).length).toBe(55);

    // The refusal names the lock: the code was not looked at.
    const right = await verify(totpAt(secret, currentStep() + 1));
    expect(right.status).toBe(400);
    expect(right.text).toContain("Too many wrong codes. Try again in 15 minutes.");
    expect((await get("/admin", cookie)).headers.get("location")).toBe("/admin/mfa?redirectTo=%2Fadmin");
  });
});
