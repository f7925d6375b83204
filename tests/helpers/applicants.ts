import { solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import type { SmtpSink } from "./smtp-sink";

/**
 * Applicants made the way a browser makes them: the mailed code, a solved ALTCHA, the sign-up form.
 * Shared by the end-to-end tests and the benchmarks.
 */

export const APPLICANT_PASSWORD = "Str0ng!Passw0rd";

/** Solves the server's ALTCHA challenge; the value the captcha field carries. */
export async function solveCaptcha(base: string): Promise<string> {
  const challenge = (await (await fetch(`${base}/api/captcha/challenge`)).json()) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey, timeout: 30_000 });
  return Buffer.from(JSON.stringify({ challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution })).toString("base64");
}

/** The session cookie a response sets, as a Cookie header value. */
export function sessionCookie(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .filter((c) => c.includes("session_token"))
    .join("; ");
}

/** A Cookie header value as the cookies a browser context takes for `url`. */
export function toBrowserCookies(cookie: string, url: string) {
  return cookie.split("; ").map((pair) => {
    const at = pair.indexOf("=");
    return { name: pair.slice(0, at), value: pair.slice(at + 1), url };
  });
}

/** Waits for the six-digit code mailed to `email` (up to 20 s). */
export async function mailedCode(sink: SmtpSink, email: string): Promise<string> {
  let code: string | undefined;
  const deadline = Date.now() + 20_000;
  while (!code && Date.now() < deadline) {
    code = sink.messages.find((m) => m.to.includes(email))?.text.match(/\b(\d{6})\b/)?.[1];
    if (!code) await new Promise((r) => setTimeout(r, 50));
  }
  if (!code) throw new Error(`no code mailed to ${email}`);
  return code;
}

/** Signs up one applicant the way a browser does (mailed code, solved ALTCHA); returns the session cookie. */
export async function signUpOverHttp(
  base: string,
  sink: SmtpSink,
  email: string,
  ip: string,
  fullName = "Bench Applicant",
  password = APPLICANT_PASSWORD,
): Promise<string> {
  const res = await signUpResponse(base, sink, email, ip, { fullName, password });
  if (res.status !== 302) throw new Error(`sign-up failed for ${email}: ${res.status}`);
  return sessionCookie(res);
}

/** Sends the code, reads it from the sink and posts Create Account; the raw answer (302 on success). */
export async function signUpResponse(
  base: string,
  sink: SmtpSink,
  email: string,
  ip: string,
  { fullName = "Bench Applicant", password = APPLICANT_PASSWORD, redirectTo }: { fullName?: string; password?: string; redirectTo?: string } = {},
): Promise<Response> {
  const headers = { origin: base, "x-forwarded-for": ip };
  await fetch(`${base}/auth`, { method: "POST", body: new URLSearchParams({ intent: "send-code", email }), headers, redirect: "manual" });
  const code = await mailedCode(sink, email);
  const captcha = await solveCaptcha(base);
  const body = new URLSearchParams({ intent: "sign-up", fullName, email, code, password, captcha });
  if (redirectTo !== undefined) body.set("redirectTo", redirectTo);
  return fetch(`${base}/auth`, { method: "POST", body, headers, redirect: "manual" });
}
