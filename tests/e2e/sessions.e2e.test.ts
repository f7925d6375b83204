import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import routes from "~/routes";
import { TEST_DATABASE_URL } from "../helpers/test-db";
import { startTestServer } from "./harness";
import { signInOverHttp } from "../helpers/admins";
import { solveCaptcha } from "../helpers/applicants";
import { startHostileWorld, type HostileWorld } from "./helpers/hostile-world";
import { waitForMail } from "./helpers/mailbox";
import { rawRequest } from "./helpers/raw-http";

/**
 * Sessions: cookie flags, sign-out ending the session on the server, no session fixation, password
 * reset ending other sessions, and cross-origin posts refused on every action of app/routes.ts.
 */

const EVIL = "https://evil.example";
const tokenOf = (cookie: string) => decodeURIComponent(cookie.split("=").slice(1).join("=")).split(".")[0]!;

/** Every path in app/routes.ts whose module exports an action: a new one is covered by itself. */
function actionPaths(): string[] {
  const out: string[] = [];
  const walk = (entries: { path?: string; index?: boolean; file: string; children?: unknown[] }[]) => {
    for (const r of entries) {
      const source = fs.readFileSync(path.resolve(import.meta.dirname, "../../app", r.file), "utf8");
      if (/export (async )?function action\b|export const action\b/.test(source)) out.push(r.index ? "/" : `/${r.path}`);
      if (r.children) walk(r.children as never);
    }
  };
  walk(routes as never);
  return [...new Set(out)];
}

describe.runIf(TEST_DATABASE_URL)("sessions", () => {
  let world: HostileWorld;
  const get = (p: string, cookie: string) => fetch(`${world.server.url}${p}`, { headers: { cookie }, redirect: "manual" });
  const signedInAs = async (cookie: string) => {
    const res = await get("/dashboard", cookie);
    return res.status === 200;
  };

  beforeAll(async () => {
    world = await startHostileWorld();
  }, 240_000);
  afterAll(async () => {
    await world?.close();
  });

  it("the session cookie is HttpOnly, SameSite=Lax and Path=/ (and not Secure on plain http)", async () => {
    const res = await fetch(`${world.server.url}/auth`, {
      method: "POST",
      body: new URLSearchParams({ intent: "sign-in", email: world.applicantA.email, password: world.applicantA.password, captcha: await solveCaptcha(world.server.url) }),
      headers: { origin: world.server.url, "x-forwarded-for": "198.18.30.1" },
      redirect: "manual",
    });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("pl.session_token="));
    expect(cookie).toBeDefined();
    expect(cookie).toMatch(/;\s*HttpOnly/i);
    expect(cookie).toMatch(/;\s*SameSite=Lax/i);
    expect(cookie).toMatch(/;\s*Path=\/(;|$)/i);
    expect(cookie).not.toMatch(/;\s*Secure/i);
  });

  it("sign-out ends the session on the server: the old cookie replayed gets the visitor experience and its row is gone", async () => {
    const cookie = await signInOverHttp(world.server.url, world.applicantA.email, world.applicantA.password, "198.18.30.2");
    expect(await signedInAs(cookie)).toBe(true);
    const token = tokenOf(cookie);
    expect((await world.db.query(`select 1 from session where token = $1`, [token])).rowCount).toBe(1);

    const out = await fetch(`${world.server.url}/auth/sign-out`, { method: "POST", body: new URLSearchParams(), headers: { cookie, origin: world.server.url }, redirect: "manual" });
    expect(out.status).toBe(302);
    expect((await world.db.query(`select 1 from session where token = $1`, [token])).rowCount).toBe(0);

    const replay = await get("/dashboard", cookie);
    expect(replay.status).toBe(302);
    expect(replay.headers.get("location")).toMatch(/^\/auth/);
    expect((await get("/api/events", cookie)).status).toBe(401);
    const submit = await fetch(`${world.server.url}/api/applications`, { method: "POST", body: new FormData(), headers: { cookie, origin: world.server.url } });
    expect(submit.status).toBe(401);
  });

  it("a session cookie planted before sign-in is not adopted: sign-in issues a new token and the planted one stays what it was", async () => {
    // The attacker's own valid session, and a made-up value.
    const attacker = await signInOverHttp(world.server.url, "applicant.b@example.com", "Str0ng!Passw0rd", "198.18.30.3");
    for (const planted of [attacker, "pl.session_token=attacker-chosen-value.c2lnbmF0dXJl"]) {
      const res = await fetch(`${world.server.url}/auth`, {
        method: "POST",
        body: new URLSearchParams({ intent: "sign-in", email: world.applicantA.email, password: world.applicantA.password, captcha: await solveCaptcha(world.server.url) }),
        headers: { origin: world.server.url, cookie: planted, "x-forwarded-for": "198.18.30.4" },
        redirect: "manual",
      });
      expect(res.status).toBe(302);
      const issued = res.headers.getSetCookie().find((c) => c.startsWith("pl.session_token="))!.split(";")[0]!;
      expect(tokenOf(issued)).not.toBe(tokenOf(planted));
      // The victim's session is the new token's; the planted one never became the victim's.
      const owner = await world.db.query<{ email: string }>(`select u.email from session s join "user" u on u.id = s.user_id where s.token = $1`, [tokenOf(planted)]);
      expect(owner.rows.map((r) => r.email)).not.toContain(world.applicantA.email);
      expect(await (await get("/dashboard", issued)).text()).toContain(world.appA);
    }
  });

  it("a password reset ends the account's other sessions", async () => {
    const email = "applicant.b@example.com";
    const other = await signInOverHttp(world.server.url, email, "Str0ng!Passw0rd", "198.18.30.5");
    expect(await signedInAs(other)).toBe(true);
    const before = world.sink.messages.length;
    const request = await fetch(`${world.server.url}/auth`, {
      method: "POST",
      body: new URLSearchParams({ intent: "reset-request", email, captcha: await solveCaptcha(world.server.url) }),
      headers: { origin: world.server.url, "x-forwarded-for": "198.18.30.6" },
      redirect: "manual",
    });
    expect(request.status).toBe(200);
    const mail = await waitForMail(world.sink, { to: email, subject: /reset/i, after: before });
    const token = decodeURIComponent(/token=([^"&\s<]+)/.exec(mail.text)![1]!);
    const reset = await fetch(`${world.server.url}/auth`, {
      method: "POST",
      body: new URLSearchParams({ intent: "reset-password", token, password: "N3w!Passw0rd-long", confirmPassword: "N3w!Passw0rd-long" }),
      headers: { origin: world.server.url, "x-forwarded-for": "198.18.30.7" },
      redirect: "manual",
    });
    expect(reset.status).toBe(302);
    expect(await signedInAs(other)).toBe(false);
    expect((await world.db.query(`select 1 from session where token = $1`, [tokenOf(other)])).rowCount).toBe(0);
  });

  it("finds the actions in app/routes.ts", () => {
    expect(actionPaths()).toEqual(
      expect.arrayContaining(["/auth", "/auth/sign-out", "/contact", "/testimonials", "/api/applications", "/admin", "/admin/documents", "/admin/mfa", "/api/admin/reveal"]),
    );
  });

  it("refuses cross-origin posts on every action (foreign Origin, foreign Referer without Origin, text/plain CSRF body), storing nothing", async () => {
    const cookie = world.cookies.admin;
    type Attempt = { label: string; headers: Record<string, string>; body: BodyInit };
    const attempts = (p: string) => {
      const list: Attempt[] = [
      { label: "foreign Origin", headers: { origin: EVIL }, body: new URLSearchParams({ intent: "note", applicationId: world.appA, note: "csrf", email: "csrf@example.com" }) as BodyInit },
      { label: "foreign Referer, no Origin", headers: { referer: `${EVIL}/page` }, body: new URLSearchParams({ intent: "note", applicationId: world.appA, note: "csrf" }) as BodyInit },
      { label: "cross-site fetch metadata", headers: { "sec-fetch-site": "cross-site" }, body: new URLSearchParams({ intent: "note", applicationId: world.appA, note: "csrf" }) as BodyInit },
      { label: "text/plain CSRF body", headers: { origin: EVIL, "content-type": "text/plain" }, body: `intent=note&applicationId=${world.appA}&note=csrf&x=` as BodyInit },
      ];
      return list.map((a) => ({ ...a, path: p }));
    };
    const problems: string[] = [];
    for (const p of actionPaths()) {
      for (const a of attempts(p)) {
        const before = await world.fingerprint();
        const res = await fetch(`${world.server.url}${p}`, { method: "POST", body: a.body, headers: { cookie, ...a.headers }, redirect: "manual" });
        await res.text();
        // 403 from our guard; 400 when React Router's own origin check for document posts answers first.
        if (res.status !== 403 && res.status !== 400) problems.push(`${p} (${a.label}): ${res.status}`);
        if (JSON.stringify(await world.fingerprint()) !== JSON.stringify(before)) problems.push(`${p} (${a.label}): stored something`);
      }
    }
    expect(problems).toEqual([]);
    // Sign-out was among them: the admin is still signed in.
    expect((await get("/admin", cookie)).status).toBe(200);
  });
});

describe("session cookie behind an HTTPS public address", () => {
  it("is Secure (and __Secure- prefixed) when PUBLIC_URL is https", async () => {
    const server = await startTestServer({ PUBLIC_URL: "https://portal.example", TRUST_PROXY: "true", PWNED_PASSWORDS_URL: "off", ADMIN_EMAIL: "secure.admin@example.com", ADMIN_PASSWORD: "Adm1n!Secret" });
    try {
      // As the TLS-terminating proxy forwards it: the public host, and the scheme in X-Forwarded-Proto.
      const body = new URLSearchParams({ intent: "sign-in", email: "secure.admin@example.com", password: "Adm1n!Secret", captcha: await solveCaptcha(server.url) });
      const res = await rawRequest(`${server.url}/auth`, {
        method: "POST",
        headers: {
          host: "portal.example",
          origin: "https://portal.example",
          "content-type": "application/x-www-form-urlencoded",
          "x-forwarded-proto": "https",
          "x-forwarded-for": "198.18.31.1",
        },
        body: Buffer.from(body.toString()),
      });
      expect(res.status).toBe(302);
      const cookie = [res.headers["set-cookie"] ?? []].flat().find((c) => c.includes("session_token="));
      expect(cookie).toMatch(/^__Secure-pl\.session_token=/);
      expect(cookie).toMatch(/;\s*Secure/i);
      expect(cookie).toMatch(/;\s*HttpOnly/i);
      expect(cookie).toMatch(/;\s*SameSite=Lax/i);
      expect(cookie).toMatch(/;\s*Path=\//i);
    } finally {
      await server.stop();
    }
  }, 120_000);
});
