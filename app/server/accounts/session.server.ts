import { eq, sql } from "drizzle-orm";
import { redirect } from "react-router";
import { getDb, type Db } from "~/server/platform/db/client.server";
import { preparedOn } from "~/server/platform/db/prepared.server";
import { isDatabaseUnavailable } from "~/server/platform/db/unavailable.server";
import { safeRedirectPath } from "~/server/platform/http/safe-redirect.server";
import { adminMfa, sessionMfa, user as users } from "~/server/platform/db/schema.server";
import { staffRoleRows } from "~/server/staff/index.server";
import { redirectWithToast } from "~/server/platform/http/toast.server";
import { ACCESS_DENIED_FOR_ROLE, can, type Permission, type StaffRole } from "~/domain/staff-permissions";
import { getAuth, SESSION_ABSOLUTE_LIMIT_MS } from "./auth.server";

export type SessionUser = {
  id: string;
  name: string;
  email: string;
  /** Holds an active staff role (admin, loan officer or auditor): the admin area is theirs. */
  isStaff: boolean;
  /** The staff role; null for applicants. What it allows: ~/domain/staff-permissions. */
  role: StaffRole | null;
  /** This session passed the second factor (a TOTP code, a backup code or a passkey with user verification). */
  mfaVerified: boolean;
  /**
   * An applicant who turned Two-Factor Authentication on, in a session that has not passed it yet: only
   * /auth/two-factor (and signing out) is open to it. Staff are held at /admin/mfa by requireStaff instead.
   * Optional only so hand-built users in tests need not name it: absent means false.
   */
  secondFactorPending?: boolean;
  sessionId: string;
};

/**
 * One lookup per page: the root loader and the page's loader both ask who is signed in (three queries
 * each), at the same time. React Router hands each loader its own copy of the Request, so the copies
 * share nothing but their headers: lookups for the same Cookie header share one answer while it is in
 * flight, and it is forgotten once settled, so a sign-out or revocation is seen by the next request.
 */
const inFlight = new Map<string, Promise<SessionUser | null>>();

/**
 * The signed-in user behind the request's session cookie, or null. Never throws for a bad cookie. A
 * session still owing its second factor counts as signed out here (the header, the live-update stream,
 * the submission API): fail closed; requireUser tells such a session where to go instead.
 */
export async function getOptionalUser(request: Request): Promise<SessionUser | null> {
  const user = await getSessionUser(request);
  return user?.secondFactorPending ? null : user;
}

/** The session's user whether or not it still owes its second factor (the two-factor page asks this). */
export function getSessionUser(request: Request): Promise<SessionUser | null> {
  const cookie = request.headers.get("cookie");
  if (!cookie) return Promise.resolve(null);
  let lookup = inFlight.get(cookie);
  if (!lookup) {
    lookup = lookUpUser(request).finally(() => inFlight.delete(cookie));
    inFlight.set(cookie, lookup);
  }
  return lookup;
}

async function lookUpUser(request: Request): Promise<SessionUser | null> {
  const auth = getAuth();
  let result: Awaited<ReturnType<typeof auth.api.getSession>>;
  try {
    result = await auth.api.getSession({ headers: request.headers });
  } catch (error) {
    // An outage is not "signed out": sending a signed-in user to the sign-in page would mislead.
    if (isDatabaseUnavailable(error)) throw error;
    return null;
  }
  if (!result) return null;
  const { session, user } = result;
  if (Date.now() - new Date(session.createdAt).getTime() > SESSION_ABSOLUTE_LIMIT_MS) {
    // Sliding renewal must not keep a session alive forever.
    await auth.api.revokeSession({ headers: request.headers, body: { token: session.token } }).catch(() => undefined);
    return null;
  }
  const access = await roleAndSecondFactor(user.id, session.id);
  if (!access) return null;
  return { id: user.id, name: user.name, email: user.email, ...access, sessionId: session.id };
}

/**
 * The staff role, this session's second factor and whether the account has one turned on, in one round
 * trip (every page asks). No row: the account was deleted between Better Auth's lookup and this one. A
 * deactivated staff member's sessions were ended when they were deactivated; one that slipped through
 * is not signed in.
 */
async function roleAndSecondFactor(
  userId: string,
  sessionId: string,
): Promise<{ isStaff: boolean; role: StaffRole | null; mfaVerified: boolean; secondFactorPending: boolean } | null> {
  const [row] = await preparedOn(getDb(), "session_role_and_second_factor", roleAndSecondFactorQuery).execute({ userId, sessionId });
  if (!row || row.deactivatedAt) return null;
  const isStaff = row.role !== null;
  const mfaVerified = row.mfaVerified === true;
  return { isStaff, role: row.role ?? null, mfaVerified, secondFactorPending: !isStaff && row.factorOn === true && !mfaVerified };
}

function roleAndSecondFactorQuery(db: Db) {
  const verified = db
    .select({ one: sql`1` })
    .from(sessionMfa)
    .where(eq(sessionMfa.sessionId, sql.placeholder("sessionId")));
  const roles = staffRoleRows();
  return db
    .select({
      role: roles.role,
      deactivatedAt: roles.deactivatedAt,
      mfaVerified: sql<boolean>`exists (${verified})`,
      factorOn: sql<boolean>`${adminMfa.enabledAt} is not null`,
    })
    .from(users)
    .leftJoin(roles, eq(roles.userId, users.id))
    .leftJoin(adminMfa, eq(adminMfa.userId, users.id))
    .where(eq(users.id, sql.placeholder("userId")))
    .limit(1)
    .prepare("session_role_and_second_factor");
}

/**
 * Where a signed-in user goes from /auth: the page they were sent from (`redirectTo`, if it is one of
 * ours), else staff to /admin and applicants to /dashboard.
 */
export function landingPath(isStaff: boolean, redirectTo: string | null | undefined): string {
  return safeRedirectPath(redirectTo, isStaff ? "/admin" : "/dashboard");
}

/**
 * Guards throw: every protected loader and action calls one (a layout's redirect alone protects nothing).
 * An applicant whose session still owes the second factor they turned on is sent to /auth/two-factor
 * and back: every signed-in page and action is behind it, not only the landing page.
 * `allowPendingSecondFactor` is for the pages that let such a session pass it.
 */
export async function requireUser(
  request: Request,
  options: { redirectTo?: string; message?: string; allowPendingSecondFactor?: boolean } = {},
): Promise<SessionUser> {
  const user = await getSessionUser(request);
  const url = new URL(request.url);
  const back = safeRedirectPath(options.redirectTo ?? `${url.pathname}${url.search}`, "/dashboard");
  if (!user) {
    const target = `/auth?redirectTo=${encodeURIComponent(back)}`;
    if (!options.message) throw redirect(target);
    throw await redirectWithToast(target, { type: "info", title: "Sign In Required", description: options.message }, { request });
  }
  if (user.secondFactorPending && !options.allowPendingSecondFactor) {
    throw redirect(`/auth/two-factor?redirectTo=${encodeURIComponent(back)}`);
  }
  return user;
}

/**
 * Staff only, with a second factor verified in this session (FTC Safeguards Rule 314.4(c)(5)), and a
 * role the permission table allows. No session: /auth. Not staff: 'Access denied' and /
 * (the spec's words). Staff without a verified second factor: /admin/mfa (enrol or enter a code), then
 * back; `allowUnverified` is for that page alone. A role without the permission: 403.
 */
export async function requireStaff(
  request: Request,
  permission: Permission,
  options: { allowUnverified?: boolean } = {},
): Promise<SessionUser & { role: StaffRole }> {
  const user = await requireUser(request);
  if (!user.isStaff || !user.role) {
    throw await redirectWithToast(
      "/",
      { type: "error", title: "Access Denied", description: "Access denied. Admin privileges required." },
      { request },
    );
  }
  if (!options.allowUnverified && !user.mfaVerified) {
    const url = new URL(request.url);
    throw redirect(`/admin/mfa?redirectTo=${encodeURIComponent(`${url.pathname}${url.search}`)}`);
  }
  if (!can(user.role, permission)) throw forbiddenForRole();
  return user as SessionUser & { role: StaffRole };
}

/** The 403 a staff member gets for something their role does not allow (pages and actions alike). */
export function forbiddenForRole(): Response {
  const body = { ok: false, message: ACCESS_DENIED_FOR_ROLE, toast: { type: "error", title: "Access Denied", description: ACCESS_DENIED_FOR_ROLE } };
  return new Response(JSON.stringify(body), { status: 403, statusText: "Forbidden", headers: { "Content-Type": "application/json; charset=utf-8" } });
}

/** Only same-site paths may be redirect targets (no open redirects): see safe-redirect.server.ts. */
export { safeRedirectPath };
