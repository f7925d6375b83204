import { createHmac } from "node:crypto";
import { createChallenge, randomInt, verifySolution, type Challenge } from "altcha-lib";
import { deriveKey as deriveShaKey } from "altcha-lib/algorithms/sha";
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { CaptchaBrowserConfig } from "~/domain/validation/captcha-messages";
import { getConfig } from "~/server/platform/config.server";
import { getDb, type Db } from "~/server/platform/db/client.server";

/**
 * The captcha on /auth (sign-in, sign-up, forgot password).
 *
 * Default: ALTCHA, a self-hosted proof of work (altcha-lib v2 on the server, the `altcha` widget in the
 * browser). The server hands out a challenge signed with a key derived from APP_SECRET; the browser
 * searches a counter whose SHA-256 key starts with the challenge's prefix (a secret counter below
 * `maxNumber`, so the work is about maxNumber/2 hashes); the form posts the solution. Verification is
 * one HMAC (the derived key is signed too), and a solved challenge is accepted ONCE: its signature is
 * recorded in rate_limit_hits (`captcha:used:<signature>`, window_start = the challenge's expiry) with
 * `INSERT ... ON CONFLICT DO NOTHING RETURNING`, so a replay is refused on every instance.
 *
 * With RECAPTCHA_SITE_KEY and RECAPTCHA_SECRET_KEY set: Google reCAPTCHA v2 instead, verified by
 * POSTing to siteverify (5 s timeout; any failure counts as a failed verification).
 */

export const CAPTCHA_CHALLENGE_URL = "/api/captcha/challenge";
export const RECAPTCHA_VERIFY_URL = "https://www.google.com/recaptcha/api/siteverify";
export const RECAPTCHA_SCRIPT_URL = "https://www.google.com/recaptcha/api.js";

/** How long a challenge may be solved and submitted. */
export const CAPTCHA_TTL_SECONDS = 600;
/** Upper bound of the secret counter: ~25,000 SHA-256 rounds on average, a fraction of a second in a browser. */
export const CAPTCHA_MAX_NUMBER = 50_000;
const ALGORITHM = "SHA-256";
const COST = 1;
/** A payload is a few hundred characters; anything much larger is not ours. */
const MAX_TOKEN_LENGTH = 4096;

export type { CaptchaBrowserConfig };

export type CaptchaResult = { ok: true } | { ok: false; reason: "missing" | "invalid" };

type HmacSecrets = { signature: string; keySignature: string };

/** Challenge and derived-key HMAC secrets, derived from APP_SECRET (never the secret itself). */
function hmacSecrets(appSecret: string): HmacSecrets {
  const derive = (label: string) => createHmac("sha256", appSecret).update(label).digest("hex");
  return { signature: derive("altcha-v1"), keySignature: derive("altcha-key-v1") };
}

export function getCaptchaConfigForBrowser(): CaptchaBrowserConfig {
  const { recaptcha } = getConfig();
  return recaptcha ? { provider: "recaptcha", siteKey: recaptcha.siteKey } : { provider: "altcha", challengeUrl: CAPTCHA_CHALLENGE_URL };
}

export function captchaProvider(): CaptchaBrowserConfig["provider"] {
  return getConfig().recaptcha ? "recaptcha" : "altcha";
}

/**
 * Extra CSP sources reCAPTCHA needs (Google's documented hosts); empty in ALTCHA mode, which needs
 * nothing beyond 'self' and `worker-src blob:`. To be merged into server/security-headers.ts.
 */
export function captchaCspSources(): { scriptSrc: string[]; frameSrc: string[]; connectSrc: string[] } {
  if (!getConfig().recaptcha) return { scriptSrc: [], frameSrc: [], connectSrc: [] };
  return {
    scriptSrc: ["https://www.google.com/recaptcha/", "https://www.gstatic.com/recaptcha/"],
    frameSrc: ["https://www.google.com/recaptcha/", "https://recaptcha.google.com/recaptcha/"],
    connectSrc: ["https://www.google.com/recaptcha/"],
  };
}

export type CreateChallengeOverrides = {
  /** Upper bound of the secret counter (tests use a small one). */
  maxNumber?: number;
  ttlSeconds?: number;
  /** Defaults to now; a challenge "created" in the past tests expiry. */
  now?: Date;
};

/** A signed ALTCHA challenge (JSON for the widget). */
export async function createCaptchaChallenge(overrides: CreateChallengeOverrides = {}): Promise<Challenge> {
  const secrets = hmacSecrets(getConfig().appSecret);
  const maxNumber = Math.max(2, Math.floor(overrides.maxNumber ?? CAPTCHA_MAX_NUMBER));
  const ttl = overrides.ttlSeconds ?? CAPTCHA_TTL_SECONDS;
  const nowMs = (overrides.now ?? new Date()).getTime();
  return createChallenge({
    algorithm: ALGORITHM,
    cost: COST,
    deriveKey: deriveShaKey,
    // Deterministic mode: the server knows the answer and signs the derived key, so checking a
    // solution is one HMAC; the browser must search counters 0..counter to find it.
    counter: randomInt(maxNumber, Math.max(1, Math.floor(maxNumber / 10))),
    expiresAt: Math.floor(nowMs / 1000) + ttl,
    hmacSignatureSecret: secrets.signature,
    hmacKeySignatureSecret: secrets.keySignature,
  });
}

const payloadSchema = z.object({
  challenge: z.object({
    // Loose: every key the client sends stays, so the signature check covers all of them.
    parameters: z.looseObject({
        algorithm: z.literal(ALGORITHM),
        nonce: z.string().regex(/^[0-9a-f]{1,128}$/),
        salt: z.string().regex(/^[0-9a-f]{1,128}$/),
        cost: z.number(),
        keyLength: z.number(),
        keyPrefix: z.string().regex(/^[0-9a-f]{1,128}$/),
        keySignature: z.string().regex(/^[0-9a-f]{64}$/),
      expiresAt: z.number().int().positive(),
    }),
    signature: z.string().regex(/^[0-9a-f]{64}$/),
  }),
  solution: z.object({
    counter: z.number().int().min(0).max(0xffffffff),
    derivedKey: z.string().regex(/^(?:[0-9a-f]{2}){1,128}$/),
    time: z.number().optional(),
  }),
});

/** Decodes the widget's value: base64 of `{ challenge: { parameters, signature }, solution }`. */
export function decodeAltchaPayload(token: string): z.infer<typeof payloadSchema> | null {
  if (token.length > MAX_TOKEN_LENGTH || !/^[A-Za-z0-9+/=_-]+$/.test(token)) return null;
  try {
    const json: unknown = JSON.parse(Buffer.from(token, "base64").toString("utf8"));
    const parsed = payloadSchema.safeParse(json);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Records a solved challenge as used. True the first time, false on any replay (on any instance).
 * The row's window_start is the challenge's expiry, so pruneExpired() drops it a day later.
 */
async function claimChallenge(db: Db, signature: string, expiresAt: number): Promise<boolean> {
  const result = (await db.execute(sql`
    insert into rate_limit_hits (key, window_start, count)
    values (${`captcha:used:${signature}`}, to_timestamp(${expiresAt}::bigint), 1)
    on conflict (key, window_start) do nothing
    returning key`)) as unknown as { rows: unknown[] };
  return result.rows.length === 1;
}

export type VerifyCaptchaOptions = {
  remoteIp?: string | null;
  /** Defaults to getDb(). */
  db?: Db;
  /** reCAPTCHA mode only: a fetch to use instead of the global one (tests). */
  fetch?: typeof fetch;
};

async function verifyAltcha(token: string, db: Db): Promise<CaptchaResult> {
  const payload = decodeAltchaPayload(token);
  if (!payload) return { ok: false, reason: "invalid" };
  const secrets = hmacSecrets(getConfig().appSecret);
  let verified: boolean;
  try {
    const result = await verifySolution({
      challenge: payload.challenge,
      solution: payload.solution,
      deriveKey: deriveShaKey,
      hmacSignatureSecret: secrets.signature,
      hmacKeySignatureSecret: secrets.keySignature,
    });
    verified = result.verified;
  } catch {
    verified = false;
  }
  if (!verified) return { ok: false, reason: "invalid" };
  // Only after the signature checked out, so nobody can fill the table with made-up signatures.
  const first = await claimChallenge(db, payload.challenge.signature, payload.challenge.parameters.expiresAt);
  return first ? { ok: true } : { ok: false, reason: "invalid" };
}

export type RecaptchaVerifyOptions = {
  secret: string;
  remoteIp?: string | null;
  fetch?: typeof fetch;
  url?: string;
  timeoutMs?: number;
};

/** Google reCAPTCHA v2 siteverify. Any network problem, timeout or unexpected answer is a failure. */
export async function verifyRecaptchaToken(token: string, options: RecaptchaVerifyOptions): Promise<boolean> {
  const body = new URLSearchParams({ secret: options.secret, response: token });
  if (options.remoteIp) body.set("remoteip", options.remoteIp);
  try {
    const response = await (options.fetch ?? fetch)(options.url ?? RECAPTCHA_VERIFY_URL, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body,
      signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
    });
    if (!response.ok) return false;
    const json = (await response.json()) as { success?: unknown };
    return json.success === true;
  } catch {
    return false;
  }
}

/**
 * Checks the captcha token a form posted. 'missing': nothing was submitted; 'invalid': wrong,
 * tampered, expired, already used, or (reCAPTCHA) Google did not confirm it.
 */
export async function verifyCaptcha(token: string | null | undefined, options: VerifyCaptchaOptions = {}): Promise<CaptchaResult> {
  if (typeof token !== "string" || token.trim() === "") return { ok: false, reason: "missing" };
  const value = token.trim();
  const { recaptcha } = getConfig();
  if (recaptcha) {
    if (value.length > MAX_TOKEN_LENGTH) return { ok: false, reason: "invalid" };
    const ok = await verifyRecaptchaToken(value, { secret: recaptcha.secretKey, remoteIp: options.remoteIp, fetch: options.fetch });
    return ok ? { ok: true } : { ok: false, reason: "invalid" };
  }
  return verifyAltcha(value, options.db ?? getDb());
}

/**
 * The token a form posted: the component's field (default 'captcha'), else the widgets' own default
 * names ('altcha', reCAPTCHA's 'g-recaptcha-response').
 */
export function captchaTokenFromForm(form: FormData, name = "captcha"): string | null {
  for (const field of [name, "altcha", "g-recaptcha-response"]) {
    const value = form.get(field);
    if (typeof value === "string" && value.trim() !== "") return value;
  }
  return null;
}
