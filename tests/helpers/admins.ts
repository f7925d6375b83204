import { currentStep, totpAt } from "~/server/accounts/totp.server";
import { sessionCookie, solveCaptcha } from "./applicants";

/**
 * Signing in over HTTP the way the browser does (solved ALTCHA), and taking an admin through the
 * second factor: enrol with the manual key the page shows, or verify with a fresh code.
 */

export async function signInOverHttp(base: string, email: string, password: string, ip = "198.18.9.1"): Promise<string> {
  const res = await fetch(`${base}/auth`, {
    method: "POST",
    body: new URLSearchParams({ intent: "sign-in", email, password, captcha: await solveCaptcha(base) }),
    headers: { origin: base, "x-forwarded-for": ip },
    redirect: "manual",
  });
  if (res.status !== 302) throw new Error(`sign-in failed for ${email}: ${res.status}`);
  return sessionCookie(res);
}

/** A TOTP code for a base32 secret, one step ahead of `afterStep` when given (codes work once). */
export function totpFor(secret: string, afterStep?: number): { code: string; step: number } {
  const step = Math.max(currentStep(), (afterStep ?? -1) + 1);
  return { code: totpAt(secret, step), step };
}

/** A six-digit code that is none of the codes accepted around now for `secret`. */
export function wrongTotpCode(secret: string): string {
  const step = currentStep();
  const valid = new Set([-2, -1, 0, 1, 2].map((d) => totpAt(secret, step + d)));
  for (let n = 123_456; ; n = (n + 111_111) % 1_000_000) {
    const code = String(n).padStart(6, "0");
    if (!valid.has(code)) return code;
  }
}

/** The last TOTP step this process used per secret: a code works once, so the next session takes the next step. */
const usedSteps = new Map<string, number>();

/**
 * Completes the second factor for this session: enrols when the page offers a key (returns it so
 * later sessions can verify), otherwise verifies with `secret`.
 */
export async function passAdminMfa(base: string, cookie: string, secret?: string): Promise<{ secret: string; backupCodes: string[] }> {
  const page = await fetch(`${base}/admin/mfa`, { headers: { cookie }, redirect: "manual" });
  if (page.status === 302) return { secret: secret ?? "", backupCodes: [] }; // already verified
  const html = await page.text();
  const shown = /data-testid="mfa-secret"[^>]*>([A-Z2-7]+)</.exec(html)?.[1];
  const key = shown ?? secret;
  if (!key) throw new Error("The admin has a second factor but no secret was given");
  // A code just used (same 30 s step) is refused as a replay: use the next step when needed.
  const { code, step } = totpFor(key, usedSteps.get(key));
  usedSteps.set(key, step);
  const res = await fetch(`${base}/admin/mfa`, {
    method: "POST",
    body: new URLSearchParams({ intent: shown ? "enrol" : "verify", code, redirectTo: "/admin" }),
    headers: { cookie, origin: base },
    redirect: "manual",
  });
  const body = await res.text();
  if (shown) {
    const codes = [...body.matchAll(/>([A-Z2-7]{5}-[A-Z2-7]{5})</g)].map((m) => m[1]!);
    if (codes.length !== 10) throw new Error(`enrolment failed: ${res.status}`);
    return { secret: key, backupCodes: codes };
  }
  if (res.status !== 302) throw new Error(`verification failed: ${res.status}`);
  return { secret: key, backupCodes: [] };
}

/**
 * An admin session with the second factor passed: signs in over HTTP, then enrols TOTP (first time)
 * or verifies with `secret`. Returns the cookie and the secret and backup codes for later sessions.
 */
export async function signInAdminWithMfa(base: string, email: string, password: string, ip?: string, secret?: string) {
  const cookie = await signInOverHttp(base, email, password, ip);
  const mfa = await passAdminMfa(base, cookie, secret);
  return { cookie, ...mfa };
}
