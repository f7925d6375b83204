import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CAPTCHA_MESSAGES } from "~/domain/validation/captcha-messages";
import { loader as challengeLoader } from "~/routes/api/captcha-challenge";
import { ConfigError, loadConfig, setConfig, type AppConfig } from "~/server/platform/config.server";
import { openDatabase, type Database } from "~/server/platform/db/client.server";
import {
  captchaCspSources,
  captchaTokenFromForm,
  createCaptchaChallenge,
  decodeAltchaPayload,
  getCaptchaConfigForBrowser,
  verifyCaptcha,
  verifyRecaptchaToken,
} from "~/server/platform/security/captcha.server";
import { TEST_DATABASE_URL, useTestDatabase } from "../helpers/test-db";

const dirs: string[] = [];
function config(env: Record<string, string> = {}): AppConfig {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-captcha-"));
  dirs.push(dir);
  return loadConfig({ DATA_DIR: dir, APP_SECRET: "s".repeat(48), ...env });
}
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** What the widget posts: base64 of { challenge: { parameters, signature }, solution }. */
function encode(challenge: Challenge, solution: unknown): string {
  return Buffer.from(JSON.stringify({ challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution })).toString(
    "base64",
  );
}

async function solvedPayload(options: Parameters<typeof createCaptchaChallenge>[0] = {}) {
  const challenge = await createCaptchaChallenge({ maxNumber: 2_000, ...options });
  const solution = await solveChallenge({ challenge, deriveKey, timeout: 20_000 });
  expect(solution).not.toBeNull();
  return { challenge, solution: solution!, token: encode(challenge, solution) };
}

describe("ALTCHA (default)", () => {
  const database = useTestDatabase({ global: true });
  beforeAll(() => setConfig(config()));

  it("tells the browser to use ALTCHA with our challenge URL; no extra CSP sources", () => {
    expect(getCaptchaConfigForBrowser()).toEqual({ provider: "altcha", challengeUrl: "/api/captcha/challenge" });
    expect(captchaCspSources()).toEqual({ scriptSrc: [], frameSrc: [], connectSrc: [] });
  });

  it("creates a signed SHA-256 challenge that expires in 10 minutes", async () => {
    const before = Math.floor(Date.now() / 1000);
    const challenge = await createCaptchaChallenge();
    expect(challenge.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(challenge.parameters.algorithm).toBe("SHA-256");
    expect(challenge.parameters.keySignature).toMatch(/^[0-9a-f]{64}$/);
    expect(challenge.parameters.expiresAt! - before).toBeGreaterThanOrEqual(599);
    expect(challenge.parameters.expiresAt! - before).toBeLessThanOrEqual(601);
  });

  it("accepts a solved challenge once; the same payload again is refused (replay)", async () => {
    const { token } = await solvedPayload();
    expect(await verifyCaptcha(token, { remoteIp: "203.0.113.9" })).toEqual({ ok: true });
    expect(await verifyCaptcha(token, { remoteIp: "203.0.113.9" })).toEqual({ ok: false, reason: "invalid" });
    // The used signature is recorded under a key of its own, not anything personal.
    const keys = (await database().db.execute(sql`select key from rate_limit_hits where key like 'captcha:used:%'`)) as unknown as {
      rows: { key: string }[];
    };
    expect(keys.rows.length).toBeGreaterThanOrEqual(1);
  });

  it("accepts exactly one of many simultaneous submissions of one payload", async () => {
    const { token } = await solvedPayload();
    const results = await Promise.all(Array.from({ length: 8 }, () => verifyCaptcha(token, {})));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
  });

  it("refuses tampered payloads", async () => {
    const { challenge, solution } = await solvedPayload();
    const wrongKey = { ...solution, derivedKey: solution.derivedKey.replace(/^./, (c) => (c === "0" ? "1" : "0")) };
    const longerExpiry = { ...challenge, parameters: { ...challenge.parameters, expiresAt: challenge.parameters.expiresAt! + 3600 } };
    const easierPrefix = { ...challenge, parameters: { ...challenge.parameters, keyPrefix: "00" } };
    const unsigned = { ...challenge, signature: "0".repeat(64) };
    for (const token of [
      encode(challenge, wrongKey),
      encode(longerExpiry, solution),
      encode(easierPrefix, solution),
      encode(unsigned, solution),
      encode(challenge, { ...solution, counter: -1 }),
    ]) {
      expect(await verifyCaptcha(token, {})).toEqual({ ok: false, reason: "invalid" });
    }
    // The untouched payload is still good (nothing above used it up).
    expect(await verifyCaptcha(encode(challenge, solution), {})).toEqual({ ok: true });
  });

  it("refuses a challenge signed with another APP_SECRET", async () => {
    setConfig(config({ APP_SECRET: "t".repeat(48) }));
    const { token } = await solvedPayload();
    setConfig(config());
    expect(await verifyCaptcha(token, {})).toEqual({ ok: false, reason: "invalid" });
  });

  it("refuses an expired challenge", async () => {
    const { token } = await solvedPayload({ now: new Date(Date.now() - 11 * 60 * 1000) });
    expect(await verifyCaptcha(token, {})).toEqual({ ok: false, reason: "invalid" });
  });

  it("says 'missing' when nothing was submitted and 'invalid' for garbage", async () => {
    for (const token of [null, undefined, "", "   "]) {
      expect(await verifyCaptcha(token, {})).toEqual({ ok: false, reason: "missing" });
    }
    const testMode = Buffer.from(JSON.stringify({ challenge: null, solution: null, test: true })).toString("base64");
    for (const token of ["abc", "!!!", Buffer.from("{not json").toString("base64"), testMode, "A".repeat(10_000)]) {
      expect(await verifyCaptcha(token, {})).toEqual({ ok: false, reason: "invalid" });
    }
    expect(decodeAltchaPayload(testMode)).toBeNull();
    expect(CAPTCHA_MESSAGES).toEqual({
      missing: "Please complete the reCAPTCHA verification",
      invalid: "Please try the reCAPTCHA again",
    });
  });

  it("a default challenge takes well under a second of hashing in Node", async () => {
    const challenge = await createCaptchaChallenge();
    const started = performance.now();
    const solution = await solveChallenge({ challenge, deriveKey, timeout: 20_000 });
    const elapsed = performance.now() - started;
    expect(solution).not.toBeNull();
    expect(solution!.counter).toBeLessThanOrEqual(50_000);
    expect(elapsed).toBeLessThan(5_000);
    expect(await verifyCaptcha(encode(challenge, solution), {})).toEqual({ ok: true });
  });

  it("serves challenges from GET /api/captcha/challenge, never cached", async () => {
    const response = await challengeLoader();
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    expect(response.headers.get("Content-Type")).toMatch(/application\/json/);
    const challenge = (await response.json()) as Challenge;
    expect(challenge.parameters.algorithm).toBe("SHA-256");
    const second = (await (await challengeLoader()).json()) as Challenge;
    expect(second.parameters.nonce).not.toBe(challenge.parameters.nonce);
  });

  it("reads the token from the component's field, or the widgets' own names", () => {
    const form = new FormData();
    expect(captchaTokenFromForm(form)).toBeNull();
    form.set("g-recaptcha-response", "g");
    expect(captchaTokenFromForm(form)).toBe("g");
    form.set("altcha", "a");
    expect(captchaTokenFromForm(form)).toBe("a");
    form.set("captcha", "c");
    expect(captchaTokenFromForm(form)).toBe("c");
  });
});

describe.runIf(TEST_DATABASE_URL)("ALTCHA replay protection across instances", () => {
  const database = useTestDatabase({ target: "postgres" });
  const extra: Database[] = [];
  beforeAll(() => setConfig(config()));
  afterAll(async () => {
    for (const d of extra) await d.close();
  });

  it("a payload used on one instance is refused on another", async () => {
    const other = await openDatabase({ databaseUrl: database().url!, poolSize: 2 });
    extra.push(other);
    const { token } = await solvedPayload();
    expect(await verifyCaptcha(token, { db: database().db })).toEqual({ ok: true });
    expect(await verifyCaptcha(token, { db: other.db })).toEqual({ ok: false, reason: "invalid" });
  });
});

describe("reCAPTCHA v2 (when configured)", () => {
  // No database: reCAPTCHA tokens are single-use at Google.
  beforeAll(() => setConfig(config({ RECAPTCHA_SITE_KEY: "site-key-123", RECAPTCHA_SECRET_KEY: "secret-456" })));

  type Sent = { url: string; body: URLSearchParams };
  function fakeGoogle(answer: () => Response | Promise<Response>, sent: Sent[]) {
    return (async (input: RequestInfo | URL, init?: RequestInit) => {
      sent.push({ url: String(input), body: new URLSearchParams(String(init?.body)) });
      return answer();
    }) as typeof fetch;
  }

  it("tells the browser the site key, adds Google's CSP sources, and the challenge route is a 404", async () => {
    expect(getCaptchaConfigForBrowser()).toEqual({ provider: "recaptcha", siteKey: "site-key-123" });
    const csp = captchaCspSources();
    expect(csp.scriptSrc).toContain("https://www.google.com/recaptcha/");
    expect(csp.scriptSrc).toContain("https://www.gstatic.com/recaptcha/");
    expect(csp.frameSrc).toContain("https://www.google.com/recaptcha/");
    expect((await challengeLoader()).status).toBe(404);
  });

  it("POSTs secret, response and remote IP to siteverify; success → ok", async () => {
    const sent: Sent[] = [];
    const result = await verifyCaptcha("tok-1", { remoteIp: "198.51.100.7", fetch: fakeGoogle(() => Response.json({ success: true }), sent) });
    expect(result).toEqual({ ok: true });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe("https://www.google.com/recaptcha/api/siteverify");
    expect(Object.fromEntries(sent[0]!.body)).toEqual({ secret: "secret-456", response: "tok-1", remoteip: "198.51.100.7" });
  });

  it("anything but success: true is 'invalid' (including network failures); no token is 'missing'", async () => {
    const sent: Sent[] = [];
    const answers: (() => Response | Promise<Response>)[] = [
      () => Response.json({ success: false, "error-codes": ["invalid-input-response"] }),
      () => new Response("oops", { status: 500 }),
      () => new Response("not json", { status: 200 }),
      () => Promise.reject(new TypeError("fetch failed")),
    ];
    for (const answer of answers) {
      expect(await verifyCaptcha("tok", { fetch: fakeGoogle(answer, sent) })).toEqual({ ok: false, reason: "invalid" });
    }
    expect(await verifyCaptcha("", { fetch: fakeGoogle(() => Response.json({ success: true }), sent) })).toEqual({
      ok: false,
      reason: "missing",
    });
  });

  it("gives up after the timeout", async () => {
    const hanging = ((_input: RequestInfo | URL, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        init?.signal?.addEventListener("abort", () => reject(init.signal?.reason));
      })) as typeof fetch;
    const started = performance.now();
    expect(await verifyRecaptchaToken("tok", { secret: "s", fetch: hanging, timeoutMs: 200 })).toBe(false);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("configuration needs both keys or neither", () => {
    expect(() => config({ RECAPTCHA_SITE_KEY: "only-site" })).toThrow(ConfigError);
    expect(() => config({ RECAPTCHA_SECRET_KEY: "only-secret" })).toThrow(/RECAPTCHA_SITE_KEY, RECAPTCHA_SECRET_KEY/);
    expect(config({ RECAPTCHA_SITE_KEY: "", RECAPTCHA_SECRET_KEY: "" }).recaptcha).toBeUndefined();
    expect(config().recaptcha).toBeUndefined();
  });
});
