import { eq } from "drizzle-orm";
import { passkeyAnswerSchema, passkeyOptionsRequestSchema, SECURITY_MESSAGES, type PasskeyActionData } from "~/domain/validation/account-security";
import { writeAudit, type RequestInfo } from "~/server/platform/audit/audit.server";
import { getDb, type Db } from "~/server/platform/db/client.server";
import { profiles, sessionMfa, user as users } from "~/server/platform/db/schema.server";
import { staffRoleRows } from "~/server/staff/index.server";
import type { ServiceAnswer } from "~/server/platform/http/action-answer.server";
import { safeRedirectPath } from "~/server/platform/http/safe-redirect.server";
import { signInLanding } from "~/server/accounts/privacy-notice.server";
import { logFailure } from "~/server/platform/log/describe-error.server";
import { checkThrottles, THROTTLES } from "~/server/platform/security/throttle.server";
import { getAuth } from "./auth.server";
import type { SessionUser } from "./session.server";
import { authenticationOptions, verifyAssertion } from "./webauthn.server";
import { AppError, jsonRefusal } from "~/server/platform/http/app-error.server";

/**
 * Sign In with a Passkey (usernameless) and a passkey as a signed-in session's second factor
 * (/auth/passkey). A sign-in verified with user verification (the UV flag: a PIN or biometrics on the
 * device) is itself two factors, so the new session is marked verified (session_mfa) for staff and for
 * applicants with two-factor on; without it, staff still pass /admin/mfa and such applicants
 * /auth/two-factor. Every success is audited (passkey.sign_in).
 */

export type PasskeyAnswer = ServiceAnswer<PasskeyActionData>;
const refuse = (status: number, message: string): PasskeyAnswer => ({ status, body: { ok: false, message } });

type Meta = { ip: string; headers: Headers; info: RequestInfo };

async function throttled(ip: string): Promise<PasskeyAnswer | null> {
  const check = await checkThrottles([[`passkey:ip:${ip}`, THROTTLES.passkeyPerIp]]);
  return check.ok ? null : { status: 429, body: { ok: false, message: check.message }, headers: { "Retry-After": String(check.retryAfterSeconds) } };
}

/** POST /auth/passkey (the route checked the origin; `user` is the session's, if any, second factor pending or not). */
export async function passkeyAction(form: FormData, user: SessionUser | null, meta: Meta, db: Db = getDb()): Promise<PasskeyAnswer> {
  const limited = await throttled(meta.ip);
  if (limited) return limited;
  const intent = form.get("intent");
  try {
    if (intent === "sign-in-options" || intent === "second-factor-options") {
      passkeyOptionsRequestSchema.parse({ intent });
      if (intent === "second-factor-options" && !user) return refuse(401, "Sign in first.");
      const options = await authenticationOptions(db, intent === "sign-in-options" ? "authenticate" : "second-factor", user?.id ?? null);
      return { status: 200, body: { ok: true, options } };
    }
    const parsed = passkeyAnswerSchema.safeParse({ intent, credential: form.get("credential") ?? undefined, redirectTo: form.get("redirectTo") ?? undefined });
    if (!parsed.success) return refuse(400, intent === "sign-in" || intent === "second-factor" ? SECURITY_MESSAGES.credential : SECURITY_MESSAGES.intent);
    if (parsed.data.intent === "second-factor") {
      if (!user) return refuse(401, "Sign in first.");
      return await secondFactor(db, user, parsed.data.credential, parsed.data.redirectTo, meta.info);
    }
    return await signIn(db, parsed.data.credential, parsed.data.redirectTo, meta);
  } catch (error) {
    if (error instanceof AppError) return jsonRefusal(error);
    logFailure("passkey", `${String(intent)} failed`, error);
    return refuse(503, SECURITY_MESSAGES.failed);
  }
}

async function accountState(db: Db, userId: string) {
  const roles = staffRoleRows();
  const [row] = await db
    .select({ name: users.name, email: users.email, role: roles.role, deactivatedAt: roles.deactivatedAt, closedAt: profiles.closedAt })
    .from(users)
    .leftJoin(roles, eq(roles.userId, users.id))
    .leftJoin(profiles, eq(profiles.id, users.id))
    .where(eq(users.id, userId))
    .limit(1);
  return row;
}

async function signIn(db: Db, credential: Parameters<typeof verifyAssertion>[1], redirectTo: string | undefined, meta: Meta): Promise<PasskeyAnswer> {
  const assertion = await verifyAssertion(db, credential, "authenticate", null);
  const account = await accountState(db, assertion.userId);
  // Same words as a refused password sign-in: a closed or deactivated account is not told apart.
  if (!account || account.deactivatedAt || account.closedAt) return refuse(401, SECURITY_MESSAGES.passkeyRefused);
  let created: { headers: Headers; response: { sessionId: string } };
  try {
    created = await getAuth().api.createPasskeySession({ body: { userId: assertion.userId }, headers: meta.headers, returnHeaders: true });
  } catch {
    return refuse(401, SECURITY_MESSAGES.passkeyRefused);
  }
  const actor = { id: assertion.userId, name: account.name, email: account.email };
  const isStaff = account.role !== null;
  await db.transaction(async (tx) => {
    if (assertion.userVerified) await tx.insert(sessionMfa).values({ sessionId: created.response.sessionId, userId: assertion.userId }).onConflictDoNothing();
    await writeAudit(tx, {
      actor,
      action: "passkey.sign_in",
      table: "session",
      recordId: created.response.sessionId,
      details: { passkeyId: assertion.passkeyId, userVerified: assertion.userVerified, secondFactor: assertion.userVerified },
      request: meta.info,
    });
  });
  // As after a password sign-in: a changed privacy notice is shown first, once (decision 0040).
  const landing = await signInLanding({ isStaff, userId: assertion.userId }, redirectTo ?? null);
  // Staff without UV go through /admin/mfa; applicants owing a code are sent on by requireUser.
  const next = isStaff && !assertion.userVerified ? `/admin/mfa?redirectTo=${encodeURIComponent(landing)}` : landing;
  const headers: Record<string, string> = {};
  const cookie = created.headers.get("set-cookie");
  if (cookie) headers["Set-Cookie"] = cookie;
  return { status: 200, body: { ok: true, redirectTo: next }, headers };
}

async function secondFactor(
  db: Db,
  user: SessionUser,
  credential: Parameters<typeof verifyAssertion>[1],
  redirectTo: string | undefined,
  info: RequestInfo,
): Promise<PasskeyAnswer> {
  const assertion = await verifyAssertion(db, credential, "second-factor", user.id);
  // verifyAssertion required UV for this purpose; checked again so the rule sits where it matters.
  if (!assertion.userVerified) return refuse(400, SECURITY_MESSAGES.passkeyNeedsVerification);
  await db.transaction(async (tx) => {
    await tx.insert(sessionMfa).values({ sessionId: user.sessionId, userId: user.id }).onConflictDoNothing();
    await writeAudit(tx, {
      actor: user,
      action: "passkey.sign_in",
      table: "session_mfa",
      recordId: user.sessionId,
      details: { passkeyId: assertion.passkeyId, userVerified: true, secondFactor: true, event: "second-factor" },
      request: info,
    });
  });
  return { status: 200, body: { ok: true, redirectTo: safeRedirectPath(redirectTo, user.isStaff ? "/admin" : "/dashboard") } };
}
