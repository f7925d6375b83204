import { and, desc, eq, ne, sql } from "drizzle-orm";
import { deviceLabel } from "~/domain/device-label";
import type { AccountSessionView } from "~/domain/views/account";
import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";
import type { Db, DbOrTx } from "~/server/platform/db/client.server";
import { session } from "~/server/platform/db/schema.server";
import type { AccountSettingsInput } from "~/domain/validation/account-settings";
import { checkCurrentPassword, type SettingsActor } from "./settings-refused.server";

/**
 * Active Sessions: the user's Better Auth sessions that have not expired, newest use first,
 * and Sign Out Other Sessions. Tokens never leave the server: the page gets ids, devices, IPs and times.
 */

/**
 * Marks the session in use now, from `ip` (the client address the Node entry resolved, through the
 * proxy's header only when TRUST_PROXY says so): Better Auth refreshes updated_at only when it extends a
 * session (once a day) and, with IP tracking off (auth.server.ts), never stores an address itself, so
 * this device's row in Active Sessions would show a stale Last Seen and no IP. An unknown ip keeps the
 * address stored.
 */
export async function touchSession(db: DbOrTx, where: { id: string } | { token: string }, ip: string | null | undefined): Promise<void> {
  await db
    .update(session)
    .set({ updatedAt: sql`now()`, ...(ip ? { ipAddress: ip } : {}) })
    .where("id" in where ? eq(session.id, where.id) : eq(session.token, where.token));
}

export async function listSessions(db: DbOrTx, userId: string, currentSessionId: string): Promise<AccountSessionView[]> {
  const rows = await db
    .select({ id: session.id, userAgent: session.userAgent, ipAddress: session.ipAddress, updatedAt: session.updatedAt })
    .from(session)
    .where(and(eq(session.userId, userId), sql`${session.expiresAt} > now()`))
    .orderBy(desc(session.updatedAt))
    .limit(50);
  return rows.map((r) => ({
    id: r.id,
    device: deviceLabel(r.userAgent),
    ipAddress: r.ipAddress,
    lastSeenAt: r.updatedAt.toISOString(),
    current: r.id === currentSessionId,
  }));
}

/**
 * After the current password (the same check and per-account throttle as Change Password and Change
 * Email, so a stolen session can neither sign the owner out elsewhere nor guess freely), one DELETE of
 * every session of the user except this one (and its audit row); answers how many ended.
 */
export async function revokeOtherSessions(db: Db, input: AccountSettingsInput<"revoke-other-sessions">, { actor, request: info }: Caller<SettingsActor>): Promise<number> {
  await checkCurrentPassword(db, actor, input.currentPassword);
  return db.transaction(async (tx) => {
    const ended = await tx
      .delete(session)
      .where(and(eq(session.userId, actor.id), ne(session.id, actor.sessionId)))
      .returning({ id: session.id });
    await writeAudit(tx, { actor, action: "account.sessions_revoke", table: "session", recordId: actor.id, details: { ended: ended.length }, request: info });
    return ended.length;
  });
}

/** Deletes every session of the account (signed out everywhere; their session_mfa rows go with them); answers how many. */
export async function endAllSessions(userId: string, tx: DbOrTx): Promise<number> {
  return (await tx.delete(session).where(eq(session.userId, userId)).returning({ id: session.id })).length;
}
