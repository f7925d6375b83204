import type { Toast } from "~/domain/action-result";
import { AUTH_MESSAGES } from "~/domain/validation/auth";
import { CAPTCHA_MESSAGES } from "~/domain/validation/captcha-messages";
import { getConfig } from "~/server/platform/config.server";
import { getDb, type Db } from "~/server/platform/db/client.server";
import { logFailure } from "~/server/platform/log/describe-error.server";
import { enqueueEmail } from "~/server/platform/mail/outbox.server";
import { passwordChangedEmail, passwordResetEmail, verificationCodeEmail } from "~/server/platform/mail/templates.server";
import { breachedPasswordMessage, checkBreachedPassword } from "~/server/platform/security/breached-password.server";
import { verifyCaptcha } from "~/server/platform/security/captcha.server";
import { accountIpKey, checkThrottles, reset as resetThrottle, THROTTLES, type ThrottleKey, type ThrottlePolicy } from "~/server/platform/security/throttle.server";
import { currentPrivacyNoticeVersion, recordPrivacyAcceptance } from "~/server/accounts/privacy-notice.server";
import { touchSession } from "~/server/accounts/sessions.server";
import { getAuth, setAuthMailer } from "./auth.server";
import { RESET_TOKEN_PREFIX } from "./recovery-links.server";
import { hasActiveStaffRole } from "~/server/staff/index.server";
import { deleteAccount, markEmailVerified } from "./account-records.server";
import { generateCode, storeCode, verifyAndConsumeCode } from "./verification-code.server";

/**
 * The account flows behind /auth. Each takes already-validated input (the route parsed it with the
 * form's schema) and answers with what the user should see; sign-in and sign-up also hand back the
 * session cookie Better Auth set.
 */

export type FlowResult =
  | { ok: true; toast: Toast; headers?: Headers; isStaff?: boolean; userId?: string }
  | { ok: false; status: number; toast: Toast; resetCaptcha?: boolean };

type RequestMeta = { ip: string; headers: Headers };

const fail = (status: number, title: string, description: string, resetCaptcha = false): FlowResult => ({
  ok: false,
  status,
  toast: { type: "error", title, description },
  resetCaptcha,
});

/** Counts one hit on each key in turn; stops at the first over its limit (later keys are not counted). */
async function throttled(keys: readonly (readonly [ThrottleKey, ThrottlePolicy])[], resetCaptcha = false): Promise<FlowResult | null> {
  for (const key of keys) {
    const check = await checkThrottles([key]);
    if (!check.ok) return fail(429, "Too Many Attempts", check.message, resetCaptcha);
  }
  return null;
}

async function captchaProblem(token: string | null | undefined, ip: string): Promise<FlowResult | null> {
  const result = await verifyCaptcha(token, { remoteIp: ip });
  if (result.ok) return null;
  return result.reason === "missing"
    ? fail(400, "Verification Required", CAPTCHA_MESSAGES.missing, true)
    : fail(400, "Verification Failed", CAPTCHA_MESSAGES.invalid, true);
}

/**
 * The gate of sign-in and reset requests, in this order: the per-IP limit, the captcha, then
 * the per-account limit keyed by account and IP. Answers the refusal, or the account key that was counted.
 */
async function accountGate(
  scope: "signin" | "reset",
  policies: { perIp: ThrottlePolicy; perAccountAndIp: ThrottlePolicy },
  input: { email: string; captcha: string | null },
  meta: RequestMeta,
): Promise<{ refused: FlowResult } | { refused: null; accountKey: string }> {
  const ipLimited = await throttled([[`${scope}:ip:${meta.ip}`, policies.perIp]]);
  if (ipLimited) return { refused: ipLimited };
  const captcha = await captchaProblem(input.captcha, meta.ip);
  if (captcha) return { refused: captcha };
  const accountKey = accountIpKey(scope, input.email, meta.ip);
  const accountLimited = await throttled([[accountKey, policies.perAccountAndIp]], true);
  return accountLimited ? { refused: accountLimited } : { refused: null, accountKey };
}

/** Send Code: a fresh 6-digit code to the (lowercased) address, written with its e-mail in one transaction. */
export async function sendSignUpCode(email: string, meta: RequestMeta, db: Db = getDb()): Promise<FlowResult> {
  // The per-address limit (3 codes per 10 minutes, decision 0006) protects the address's inbox, so
  // it stays per address even though a stranger can reach it; its own scope keeps it from touching
  // sign-in or reset. A request the per-IP limit refused does not count against the address.
  const limited = await throttled([
    [`code-send:ip:${meta.ip}`, THROTTLES.codeSendPerIp],
    [{ email, scope: "code-send" }, THROTTLES.codeSendPerEmail],
  ]);
  if (limited) return limited;
  const code = generateCode();
  try {
    await db.transaction(async (tx) => {
      await storeCode(tx, email, code);
      await enqueueEmail(tx, { to: email, ...verificationCodeEmail({ code }) });
    });
  } catch (error) {
    logFailure("auth", "could not store a sign-up code", error);
    return fail(500, "Failed to Send Code", AUTH_MESSAGES.codeSendFailed);
  }
  return {
    ok: true,
    toast: { type: "success", title: "Verification Code Sent", description: `We sent a 6-digit code to ${email}. It expires in 10 minutes.` },
  };
}

/**
 * Create Account. Refused unless a code sent to this very address is entered now: the address is
 * proven before the account exists (Better Auth's own verify-after-sign-up flow allows takeovers).
 */
export async function signUp(
  input: { fullName: string; email: string; code: string; password: string; captcha: string | null },
  meta: RequestMeta,
  db: Db = getDb(),
): Promise<FlowResult> {
  const limited = await throttled([[`code-check:ip:${meta.ip}`, THROTTLES.codeCheckPerIp]]);
  if (limited) return limited;
  const captcha = await captchaProblem(input.captcha, meta.ip);
  if (captcha) return captcha;

  const breached = await checkBreachedPassword(input.password);
  if (breached.status === "breached") {
    return fail(400, "Compromised Password", breachedPasswordMessage(breached.count), true);
  }

  if (!(await verifyAndConsumeCode(db, input.email, input.code))) {
    return fail(400, "Invalid Code", AUTH_MESSAGES.invalidCode, true);
  }

  const auth = getAuth();
  const created = await auth.api
    .signUpEmail({
      body: { name: input.fullName, email: input.email, password: input.password },
      headers: meta.headers,
      returnHeaders: true,
    })
    .catch((error: unknown) => {
      const message = (error as { body?: { message?: string } }).body?.message ?? "Could not create your account. Please try again.";
      return fail(400, "Sign Up Failed", message, true);
    });
  if ("ok" in created) return created;
  const { id, name, email } = created.response.user;
  try {
    // The code proved the address; creating the account accepts the privacy notice shown on the form
    //. Both in one transaction; Better Auth writes the user itself (its adapter runs without
    // a transaction here), so if this fails the account it just made is removed again: no account
    // exists without its recorded acceptance.
    await db.transaction(async (tx) => {
      await markEmailVerified(id, tx);
      await recordPrivacyAcceptance(tx, currentPrivacyNoticeVersion(), { actor: { id, name, email }, request: { ip: meta.ip, userAgent: meta.headers.get("user-agent") } });
    });
  } catch (error) {
    logFailure("auth", "could not record the privacy notice acceptance of a new account", error);
    await deleteAccount(id, db).catch((cleanup: unknown) => logFailure("auth", "could not remove the half-made account", cleanup));
    return fail(500, "Sign Up Failed", "Could not create your account. Please try again.", true);
  }
  return { ok: true, toast: { type: "success", title: "Account Created!", description: "Welcome to Private Loans." }, headers: created.headers };
}

/**
 * Sign In. The same neutral message for an unknown address and a wrong password.
 *
 * Order matters: the per-IP limit, then the captcha, then the per-account limit, which is
 * keyed by account and IP. A per-account count ahead of the captcha let ten captcha-less posts with
 * someone's address lock that person out; keyed by account alone, a stranger solving captchas still
 * could. Now a stranger spends only their own IP's allowance, and the owner from another address is
 * never refused because of them.
 */
export async function signIn(
  input: { email: string; password: string; captcha: string | null },
  meta: RequestMeta,
): Promise<FlowResult> {
  const gate = await accountGate("signin", { perIp: THROTTLES.signInPerIp, perAccountAndIp: THROTTLES.signInPerAccountAndIp }, input, meta);
  if (gate.refused) return gate.refused;
  try {
    const { headers, response } = await getAuth().api.signInEmail({
      body: { email: input.email, password: input.password },
      headers: meta.headers,
      returnHeaders: true,
    });
    // The password was proven: earlier misses from this address no longer count against it.
    await resetThrottle(gate.accountKey);
    // The new session's address, as the rest of the app resolves it (Active Sessions shows it).
    await touchSession(getDb(), { token: response.token }, meta.ip);
    const isStaff = await hasActiveStaffRole(response.user.id);
    return { ok: true, toast: { type: "success", title: "Welcome Back!", description: "You have signed in successfully." }, headers, isStaff, userId: response.user.id };
  } catch {
    return fail(401, "Sign In Failed", AUTH_MESSAGES.signInFailed, true);
  }
}

export async function signOut(headers: Headers): Promise<Headers> {
  try {
    const result = await getAuth().api.signOut({ headers, returnHeaders: true });
    return result.headers;
  } catch {
    // No session (already signed out): nothing to revoke; the redirect still clears the page.
    return new Headers();
  }
}

setAuthMailer({
  // Reset links point at /auth with the token in the fragment, so it never reaches server logs or referrers.
  sendResetLink: async ({ user, token }) => {
    const resetUrl = `${getConfig().publicUrl}/auth#type=recovery&token=${encodeURIComponent(token)}`;
    await enqueueEmail(getDb(), { to: user.email, ...passwordResetEmail({ resetUrl }) });
  },
  // An unexpected change is noticed by the owner.
  sendPasswordChanged: async (user) => {
    await enqueueEmail(getDb(), {
      to: user.email,
      ...passwordChangedEmail({ name: user.name, baseUrl: getConfig().publicUrl }),
    });
  },
});

/**
 * Forgot Password: the same reply whether or not the account exists. Same order as sign-in: per-IP
 * limit, captcha, then the per-account limit keyed by account and IP, so captcha-less requests (or
 * requests from other addresses) never use up the owner's resets.
 */
export async function requestPasswordReset(
  input: { email: string; captcha: string | null },
  meta: RequestMeta,
): Promise<FlowResult> {
  const gate = await accountGate("reset", { perIp: THROTTLES.resetPerIp, perAccountAndIp: THROTTLES.resetPerAccountAndIp }, input, meta);
  if (gate.refused) return gate.refused;
  try {
    await getAuth().api.requestPasswordReset({ body: { email: input.email, redirectTo: "/auth" }, headers: meta.headers });
  } catch (error) {
    logFailure("auth", "password reset request failed", error);
    return fail(500, "Reset Failed", AUTH_MESSAGES.resetSendFailed, true);
  }
  return {
    ok: true,
    toast: {
      type: "success",
      title: "Password Reset Email Sent",
      description: "If an account exists for that address, a reset link is on its way. It expires in 1 hour.",
    },
  };
}

/**
 * Whether a reset link can still be used, asked when the page opens it, so a used or expired link
 * says so at once instead of after a new password was typed. It only reads: the token stays valid.
 * Unknown, used (Better Auth deletes the row) and expired links get one answer after the same single
 * lookup, so the answer tells nothing about accounts or about which tokens once existed. Throttled per
 * IP like using a link (both are ways to try tokens), on its own key so opening a link does not spend
 * the budget of the reset that follows.
 */
export async function checkResetLink(token: string, meta: RequestMeta): Promise<FlowResult> {
  const limited = await throttled([[`reset-check:ip:${meta.ip}`, THROTTLES.resetPerIp]]);
  if (limited) return limited;
  const { internalAdapter } = await getAuth().$context;
  // Better Auth's own lookup (it knows how the identifier is stored), without consuming the row.
  const row = await internalAdapter.findVerificationValue(`${RESET_TOKEN_PREFIX}${token}`);
  if (!row || row.expiresAt < new Date()) return fail(400, "Reset Link Expired", AUTH_MESSAGES.resetLinkSpent);
  return { ok: true, toast: { type: "info", title: "Reset Your Password" } };
}

/** Reset Your Password: a single-use token; the user's other sessions end. */
export async function resetPassword(input: { token: string; password: string }, meta: RequestMeta): Promise<FlowResult> {
  const limited = await throttled([[`reset-use:ip:${meta.ip}`, THROTTLES.resetPerIp]]);
  if (limited) return limited;
  const breached = await checkBreachedPassword(input.password);
  if (breached.status === "breached") return fail(400, "Compromised Password", breachedPasswordMessage(breached.count));
  const auth = getAuth();
  try {
    await auth.api.resetPassword({ body: { newPassword: input.password, token: input.token }, headers: meta.headers });
  } catch {
    return fail(400, "Password Update Failed", "This reset link is invalid or has expired. Please request a new one.");
  }
  return { ok: true, toast: { type: "success", title: "Password Updated Successfully", description: "Please sign in with your new password." } };
}
