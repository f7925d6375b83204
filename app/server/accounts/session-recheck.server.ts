import { eq, inArray, sql } from "drizzle-orm";
import { getDb, type Db } from "~/server/platform/db/client.server";
import { adminMfa, session, sessionMfa } from "~/server/platform/db/schema.server";
import { staffRoleRows } from "~/server/staff/index.server";
import { SESSION_ABSOLUTE_LIMIT_MS } from "./auth.server";

/** What a live-update stream needs to know about its session now. */
export type SessionAccess = { id: string; isStaff: boolean; mfaVerified: boolean };

/** Bounds the statement's parameter list (PostgreSQL allows 65,535). */
const CHUNK = 1000;

/**
 * Asks of many sessions at once what getOptionalUser asks of one, for the live-update heartbeats: 10,000
 * open streams looking themselves up one by one every 25 s were 400 lookups a second (decision 0046).
 * A session missing from the answer is signed out: deleted (sign-out, revocation, password reset), past
 * its expiry or the absolute limit, its staff role deactivated, or owing the second factor it turned on.
 * Unlike a page request this never renews a session: a tab left open does not keep anyone signed in.
 */
export async function recheckSessions(sessionIds: readonly string[], db: Db = getDb()): Promise<Map<string, SessionAccess>> {
  const found = new Map<string, SessionAccess>();
  const unique = [...new Set(sessionIds)];
  const now = Date.now();
  const roles = staffRoleRows();
  for (let i = 0; i < unique.length; i += CHUNK) {
    const ids = unique.slice(i, i + CHUNK);
    const rows = await db
      .select({
        sessionId: session.id,
        userId: session.userId,
        expiresAt: session.expiresAt,
        createdAt: session.createdAt,
        role: roles.role,
        deactivatedAt: roles.deactivatedAt,
        mfaVerified: sql<boolean>`${sessionMfa.sessionId} is not null`,
        factorOn: sql<boolean>`${adminMfa.enabledAt} is not null`,
      })
      .from(session)
      .leftJoin(roles, eq(roles.userId, session.userId))
      .leftJoin(adminMfa, eq(adminMfa.userId, session.userId))
      .leftJoin(sessionMfa, eq(sessionMfa.sessionId, session.id))
      .where(inArray(session.id, ids));
    for (const row of rows) {
      if (row.expiresAt.getTime() <= now || now - row.createdAt.getTime() > SESSION_ABSOLUTE_LIMIT_MS) continue;
      if (row.deactivatedAt) continue;
      const isStaff = row.role !== null;
      const mfaVerified = row.mfaVerified === true;
      if (!isStaff && row.factorOn === true && !mfaVerified) continue;
      found.set(row.sessionId, { id: row.userId, isStaff, mfaVerified });
    }
  }
  return found;
}
