import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { AUTH_MESSAGES } from "~/domain/validation/auth";
import { CAPTCHA_MESSAGES } from "~/domain/validation/captcha-messages";
import { getAuth } from "~/server/accounts/auth.server";
import { requestPasswordReset, sendSignUpCode, signIn, type FlowResult } from "~/server/accounts/flows.server";
import { emailOutbox } from "~/server/platform/db/schema.server";
import { createCaptchaChallenge } from "~/server/platform/security/captcha.server";
import { testTargets, useTestDatabase } from "../helpers/test-db";
import { setUpTestConfig } from "../helpers/temp-config";

/**
 * Per-account limits that strangers cannot turn against the owner (issue 16, item 3). Ten
 * captcha-less sign-ins with someone's address used to lock that person's own sign-in for 15
 * minutes, and three captcha-less reset requests their reset. The flows now count per IP, then check
 * the captcha, then count per account AND IP.
 */

const PASSWORD = "Str0ng!Passw0rd";
const TOO_MANY = /^Too many attempts\. Please wait \d+ minutes? and try again\.$/;

setUpTestConfig("lockout", { APP_SECRET: "l".repeat(48) });

/** What the ALTCHA widget posts after solving one of our challenges (a small one, to keep tests quick). */
async function solvedCaptcha(): Promise<string> {
  const challenge = await createCaptchaChallenge({ maxNumber: 1_000 });
  const solution = await solveChallenge({ challenge, deriveKey, timeout: 20_000 });
  if (!solution) throw new Error("could not solve the test challenge");
  return Buffer.from(JSON.stringify({ challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution })).toString("base64");
}

const description = (r: FlowResult) => r.toast.description ?? "";

describe.each(testTargets)("per-account limits strangers cannot trigger, on %s", (target) => {
  const database = useTestDatabase({ target, global: true });
  let n = 0;
  /** A fresh address block per test, so per-IP counts never carry over between tests. */
  const ip = (last: number) => `198.51.${n}.${last}`;

  async function owner(): Promise<string> {
    const email = `owner-${target}-${++n}@example.com`;
    await getAuth().api.signUpEmail({ body: { name: "Owner", email, password: PASSWORD } });
    return email;
  }
  const meta = (address: string) => ({ ip: address, headers: new Headers() });

  async function resetMails(email: string): Promise<number> {
    const rows = await database()
      .db.select({ id: emailOutbox.id })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.toAddress, email), eq(emailOutbox.template, "password-reset")));
    return rows.length;
  }

  it("(a) 12 captcha-less sign-ins with the owner's address from IP A: the owner signs in from IP B", async () => {
    const email = await owner();
    const attacker: FlowResult[] = [];
    for (let i = 0; i < 12; i++) {
      attacker.push(await signIn({ email, password: "Wrong!Passw0rd", captcha: i % 2 ? null : "bm90IGEgdG9rZW4=" }, meta(ip(1))));
    }
    const mine = await signIn({ email, password: PASSWORD, captcha: await solvedCaptcha() }, meta(ip(2)));
    expect(mine).toMatchObject({ ok: true, toast: { title: "Welcome Back!" } });
    expect(mine.ok && mine.headers?.getSetCookie().some((c) => c.startsWith("pl."))).toBe(true);
    // Each of the stranger's posts was refused for its captcha, never counted as a sign-in attempt.
    expect(attacker.map((r) => (r.ok ? 200 : r.status))).toEqual(Array(12).fill(400));
    expect(attacker.map(description)).toEqual(Array.from({ length: 12 }, (_, i) => (i % 2 ? CAPTCHA_MESSAGES.missing : CAPTCHA_MESSAGES.invalid)));
  });

  it("(b) the same 12 captcha-less sign-ins from IP A: the owner then signs in from IP A too", async () => {
    const email = await owner();
    const attacker: FlowResult[] = [];
    for (let i = 0; i < 12; i++) attacker.push(await signIn({ email, password: "Wrong!Passw0rd", captcha: null }, meta(ip(1))));
    const mine = await signIn({ email, password: PASSWORD, captcha: await solvedCaptcha() }, meta(ip(1)));
    expect(mine).toMatchObject({ ok: true, toast: { title: "Welcome Back!" } });
    expect(attacker.map((r) => (r.ok ? 200 : r.status))).toEqual(Array(12).fill(400));
  });

  it("(c) 11 wrong passwords with solved captchas from IP A: A gets 429 from the 11th, the owner from IP B signs in", async () => {
    const email = await owner();
    const results: FlowResult[] = [];
    for (let i = 0; i < 11; i++) results.push(await signIn({ email, password: "Wrong!Passw0rd", captcha: await solvedCaptcha() }, meta(ip(1))));
    expect(results.slice(0, 10).map((r) => (r.ok ? 200 : r.status))).toEqual(Array(10).fill(401));
    expect(description(results[0]!)).toBe(AUTH_MESSAGES.signInFailed);
    expect(results[10]).toMatchObject({ ok: false, status: 429, toast: { title: "Too Many Attempts" }, resetCaptcha: true });
    expect(description(results[10]!)).toMatch(TOO_MANY);
    // The right password from A waits too: A is the address that guessed.
    expect(await signIn({ email, password: PASSWORD, captcha: await solvedCaptcha() }, meta(ip(1)))).toMatchObject({ ok: false, status: 429 });
    // The owner elsewhere is not stopped.
    expect(await signIn({ email, password: PASSWORD, captcha: await solvedCaptcha() }, meta(ip(2)))).toMatchObject({ ok: true });
  });

  it("a successful sign-in clears that address's misses for the account", async () => {
    const email = await owner();
    const wrong = async () => signIn({ email, password: "Wrong!Passw0rd", captcha: await solvedCaptcha() }, meta(ip(1)));
    for (let i = 0; i < 9; i++) expect(await wrong()).toMatchObject({ status: 401 });
    expect(await signIn({ email, password: PASSWORD, captcha: await solvedCaptcha() }, meta(ip(1)))).toMatchObject({ ok: true });
    // Nine misses plus a success would have reached the limit of ten; after the success ten more are allowed.
    for (let i = 0; i < 9; i++) expect(await wrong()).toMatchObject({ status: 401 });
  });

  it("(d) 4 captcha-less reset requests for the owner's address: the owner's reset with a captcha is accepted and mailed", async () => {
    const email = await owner();
    const attacker: FlowResult[] = [];
    for (let i = 0; i < 4; i++) attacker.push(await requestPasswordReset({ email, captcha: null }, meta(ip(1))));
    expect(await resetMails(email)).toBe(0);
    const mine = await requestPasswordReset({ email, captcha: await solvedCaptcha() }, meta(ip(1)));
    expect(mine).toMatchObject({ ok: true, toast: { title: "Password Reset Email Sent" } });
    expect(await resetMails(email)).toBe(1);
    expect(attacker.map((r) => (r.ok ? 200 : r.status))).toEqual([400, 400, 400, 400]);
  });

  it("a stranger's captcha-solved reset requests hit their own IP's limit, not the owner's", async () => {
    const email = await owner();
    const results: FlowResult[] = [];
    for (let i = 0; i < 4; i++) results.push(await requestPasswordReset({ email, captcha: await solvedCaptcha() }, meta(ip(1))));
    expect(results.map((r) => (r.ok ? 200 : r.status))).toEqual([200, 200, 200, 429]);
    expect(description(results[3]!)).toMatch(TOO_MANY);
    const mine = await requestPasswordReset({ email, captcha: await solvedCaptcha() }, meta(ip(2)));
    expect(mine).toMatchObject({ ok: true });
    expect(await resetMails(email)).toBe(4);
  });

  it("the per-address code limit (3 per 10 minutes) stays, and does not stop sign-in or reset", async () => {
    const email = await owner();
    const sends = [];
    for (let i = 0; i < 4; i++) sends.push(await sendSignUpCode(email, meta(ip(1))));
    expect(sends.map((r) => (r.ok ? 200 : r.status))).toEqual([200, 200, 200, 429]);
    // From another IP too: the limit is the address's, to protect its inbox.
    expect(await sendSignUpCode(email, meta(ip(2)))).toMatchObject({ ok: false, status: 429 });
    expect(await signIn({ email, password: PASSWORD, captcha: await solvedCaptcha() }, meta(ip(1)))).toMatchObject({ ok: true });
    expect(await requestPasswordReset({ email, captcha: await solvedCaptcha() }, meta(ip(1)))).toMatchObject({ ok: true });
  });

  it("the per-IP limit still comes first: the 21st sign-in from one IP is refused before its captcha is looked at", async () => {
    const email = await owner();
    for (let i = 0; i < 20; i++) expect(await signIn({ email, password: PASSWORD, captcha: null }, meta(ip(1)))).toMatchObject({ status: 400 });
    const token = await solvedCaptcha();
    const refused = await signIn({ email, password: PASSWORD, captcha: token }, meta(ip(1)));
    expect(refused).toMatchObject({ ok: false, status: 429 });
    expect(description(refused)).toMatch(TOO_MANY);
    // Not spent by the refused request: the same solution still signs the owner in from elsewhere.
    expect(await signIn({ email, password: PASSWORD, captcha: token }, meta(ip(2)))).toMatchObject({ ok: true });
  });
});
