import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpOverHttp } from "../../bench/lib";
import { startSmtpSink, type SmtpSink } from "../helpers/smtp-sink";
import { startTestServer, type TestServer } from "./harness";
import { passAdminMfa, signInOverHttp, totpFor } from "./helpers/admin-session";

/** Staff must use a second factor before any admin data is served (16 CFR 314.4(c)(5)). */

const ADMIN = { email: "ada.admin@example.com", password: "Adm1n!Secret" };

describe("admin second factor", () => {
  let sink: SmtpSink;
  let server: TestServer;
  let secret: string;
  let backupCodes: string[];

  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startTestServer({ SMTP_URL: sink.url, PWNED_PASSWORDS_URL: "off", TRUST_PROXY: "true", ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
  });
  afterAll(async () => {
    await server?.stop();
    await sink?.close();
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
});
