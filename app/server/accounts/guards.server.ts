import type { Permission } from "~/domain/staff-permissions";
import type { Guard } from "~/server/platform/http/define-route.server";
import { getOptionalUser, requireStaff, requireUser, type SessionUser } from "./session.server";

/**
 * The guards a route declares (`defineAction`/`defineLoader`). Each is one of the session rules in
 * session.server.ts; the permission is a row of the one permissions table (domain/staff-permissions).
 */

/** An open route (the public site's forms, sign-in): nobody is required. */
export const anyone: Guard<null> = () => Promise.resolve(null);

/** Whoever is signed in, or null: the route decides what a visitor gets. */
export const maybeSignedIn: Guard<SessionUser | null> = getOptionalUser;

/** A signed-in user (past their second factor), or the redirect to sign in. */
export const signedIn: Guard<SessionUser> = (request) => requireUser(request);

/** Staff whose role has `permission`, with a verified second factor. */
export function staffWith(permission: Permission): Guard<Awaited<ReturnType<typeof requireStaff>>> {
  return (request) => requireStaff(request, permission);
}

/** Staff who still owe their second factor: the /admin/mfa page alone (enrol or enter a code). */
export const staffBeforeSecondFactor: Guard<Awaited<ReturnType<typeof requireStaff>>> = (request) => requireStaff(request, "staff.read", { allowUnverified: true });

/** A signed-in user who may still owe their second factor: the /auth/two-factor page alone. */
export const signedInBeforeSecondFactor: Guard<SessionUser> = (request) => requireUser(request, { allowPendingSecondFactor: true });
