import { createHash, randomBytes } from "node:crypto";
import { and, asc, eq, gt, isNull, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { StaffRole } from "~/domain/staff-permissions";
import {
  STAFF_MESSAGES,
  type PendingInvitation,
  type StaffMember,
  type StaffOverview,
} from "~/domain/validation/staff";
import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";
import { getConfig } from "~/server/platform/config.server";
import { getDb, type Db, type Tx } from "~/server/platform/db/client.server";
import { staffInvitations, userRoles } from "~/server/platform/db/schema.server";
import {
  accountIdWithEmail,
  endAllSessions,
  removeAllPasskeys,
  removeSecondFactor,
  staffMemberAccounts,
} from "~/server/accounts/index.server";
import { enqueueEmail } from "~/server/platform/mail/outbox.server";
import { staffInvitationEmail } from "~/server/staff/staff-emails.server";
import { AppError } from "~/server/platform/http/app-error.server";

/**
 * Staff management (/admin/staff, admins only): invitations, role changes, deactivation and
 * second-factor resets. Each act and its audit row commit together. The last-active-admin rule is
 * checked under a lock on the active admin rows (SELECT … FOR UPDATE), so two admins demoting or
 * deactivating each other at the same moment leave one admin: the second waits for the first and
 * then counts again.
 */

export const INVITATION_VALID_MS = 72 * 60 * 60 * 1000;

export type { PendingInvitation, StaffMember, StaffOverview };

/** The invitation token: 32 random bytes, base64url (43 characters); the database keeps only its SHA-256. */
export function newInvitationToken(): string {
  return randomBytes(32).toString("base64url");
}

export function hashInvitationToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

export function invitationLink(token: string): string {
  return `${getConfig().publicUrl.replace(/\/+$/, "")}/auth/invite/${token}`;
}

/** What an invitation shows (the Staff page's open list, the invitation page). */
const invitationColumns = {
  id: staffInvitations.id,
  name: staffInvitations.name,
  email: staffInvitations.email,
  role: staffInvitations.role,
  expiresAt: staffInvitations.expiresAt,
};

/** The role row of `userId` (a value or a column) when it is an active admin's: an admin, not deactivated. */
const isActiveAdmin = (userId: string | AnyColumn) =>
  and(eq(userRoles.userId, userId), eq(userRoles.role, "admin"), isNull(userRoles.deactivatedAt));

/** An invitation still open: neither accepted nor revoked (only such a one can be used or cancelled). */
const isOpenInvitation = () => and(isNull(staffInvitations.acceptedAt), isNull(staffInvitations.revokedAt));

/**
 * Revokes, in one conditional UPDATE, the open invitations `which` picks (at `at`, the database's now by
 * default), answering the ones it revoked: one already accepted or revoked stays as it was.
 */
function revokeOpenInvitations(tx: Tx, which: SQL, at: Date | SQL = sql`now()`) {
  return tx
    .update(staffInvitations)
    .set({ revokedAt: at })
    .where(and(which, isOpenInvitation()))
    .returning({ id: staffInvitations.id, email: staffInvitations.email });
}

/** Every staff member (active first, then by name) and the invitations still open. */
export async function listStaff(
  db: Db = getDb(),
  now: Date = new Date(),
): Promise<StaffOverview> {
  const roles = await db
    .select({ userId: userRoles.userId, role: userRoles.role, deactivatedAt: userRoles.deactivatedAt })
    .from(userRoles);
  const roleOf = new Map(roles.map((r) => [r.userId, r]));
  // The accounts come ordered by name then id; active members first keeps that order within each part.
  const accounts = await staffMemberAccounts([...roleOf.keys()], db);
  const rows = accounts
    .map((a) => ({ ...a, ...roleOf.get(a.userId)! }))
    .sort((a, b) => Number(a.deactivatedAt !== null) - Number(b.deactivatedAt !== null));
  const invitations = await db
    .select(invitationColumns)
    .from(staffInvitations)
    .where(isOpenInvitation())
    .orderBy(asc(staffInvitations.createdAt));
  return {
    members: rows.map((r) => ({
      userId: r.userId,
      name: r.name,
      email: r.email,
      role: r.role,
      deactivatedAt: r.deactivatedAt ? r.deactivatedAt.toISOString() : null,
      mfaEnrolled: r.mfaEnabledAt != null,
    })),
    invitations: invitations.map((i) => ({
      ...i,
      expiresAt: i.expiresAt.toISOString(),
      expired: i.expiresAt.getTime() <= now.getTime(),
    })),
  };
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === "23505" || e?.cause?.code === "23505";
}

/**
 * Invite Staff: refused when the address already has an account; an open invitation to the same
 * address is revoked and replaced (the partial unique index allows one open). The row, the e-mail
 * with the link and the audit row commit together. Returns the token (only tests and the e-mail see it).
 */
export async function inviteStaff(
  input: { name: string; email: string; role: StaffRole },
  { actor, request }: Caller,
  db: Db = getDb(),
  now: Date = new Date(),
): Promise<{ invitationId: string; token: string; expiresAt: Date }> {
  const email = input.email.trim().toLowerCase();
  if (await accountIdWithEmail(email, db)) throw new AppError("staff", 409, STAFF_MESSAGES.accountExists);
  const token = newInvitationToken();
  const expiresAt = new Date(now.getTime() + INVITATION_VALID_MS);
  try {
    return await db.transaction(async (tx) => {
      const replaced = await revokeOpenInvitations(tx, sql`lower(${staffInvitations.email}) = ${email}`, now);
      const [row] = await tx
        .insert(staffInvitations)
        .values({
          email,
          name: input.name,
          role: input.role,
          tokenHash: hashInvitationToken(token),
          invitedBy: actor.id,
          expiresAt,
        })
        .returning({ id: staffInvitations.id });
      if (!row) throw new Error("inviteStaff: insert returned no row");
      await enqueueEmail(tx, {
        to: email,
        ...staffInvitationEmail({
          name: input.name,
          role: input.role,
          invitedBy: actor.name,
          link: invitationLink(token),
          expiresAt,
        }),
      });
      await writeAudit(tx, {
        actor,
        action: "staff.invite",
        table: "staff_invitations",
        recordId: row.id,
        details: {
          email,
          role: input.role,
          expiresAt: expiresAt.toISOString(),
          replaced: replaced.map((r) => r.id),
        },
        request,
      });
      return { invitationId: row.id, token, expiresAt };
    });
  } catch (error) {
    // Two invitations to one address at the same instant: the index lets one through.
    if (isUniqueViolation(error))
      throw new AppError("staff", 409, STAFF_MESSAGES.busy);
    throw error;
  }
}

/** Cancel Invitation: one conditional UPDATE, so it is cancelled once (and never after it was accepted). */
export async function cancelInvitation(invitationId: string, { actor, request }: Caller, db: Db = getDb()): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await revokeOpenInvitations(tx, eq(staffInvitations.id, invitationId));
    if (!row) {
      const [known] = await tx
        .select({ id: staffInvitations.id })
        .from(staffInvitations)
        .where(eq(staffInvitations.id, invitationId))
        .limit(1);
      throw new AppError("staff", 
        known ? 409 : 404,
        known
          ? STAFF_MESSAGES.invitationClosed
          : STAFF_MESSAGES.unknownInvitation,
      );
    }
    await writeAudit(tx, {
      actor,
      action: "staff.invite_revoke",
      table: "staff_invitations",
      recordId: row.id,
      details: { email: row.email },
      request,
    });
  });
}

/** Locks the active admins' rows (in one order, so two such transactions never deadlock); returns their user ids. */
async function lockActiveAdmins(tx: Tx): Promise<string[]> {
  const rows = await tx
    .select({ userId: userRoles.userId })
    .from(userRoles)
    .where(and(eq(userRoles.role, "admin"), isNull(userRoles.deactivatedAt)))
    .orderBy(asc(userRoles.userId))
    .for("update");
  return rows.map((r) => r.userId);
}

async function staffRow(tx: Tx, userId: string) {
  const [row] = await tx
    .select({ role: userRoles.role, deactivatedAt: userRoles.deactivatedAt })
    .from(userRoles)
    .where(eq(userRoles.userId, userId))
    .for("update")
    .limit(1);
  const [account] = row ? await staffMemberAccounts([userId], tx) : [];
  if (!row || !account) throw new AppError("staff", 404, STAFF_MESSAGES.unknownStaff);
  return { ...row, email: account.email };
}

/** Whether taking `userId` out of the active admins would leave none (call with the admin rows locked). */
function isLastActiveAdmin(activeAdmins: string[], userId: string): boolean {
  return activeAdmins.includes(userId) && activeAdmins.length <= 1;
}

/**
 * The open invitations `userId` sent, revoked (call it in the transaction that takes away their admin
 * role or deactivates them, after locking their role row). An invitation is an admin's act that runs
 * on after it was made; it must not outlive the authority behind it, or a demoted or dismissed admin's
 * link still makes staff. Answers how many (the Staff page says it).
 */
async function revokeInvitationsSentBy(tx: Tx, userId: string): Promise<string[]> {
  const rows = await revokeOpenInvitations(tx, eq(staffInvitations.invitedBy, userId));
  return rows.map((r) => r.id);
}

/**
 * Change Role: an active staff member's one role; the last active admin keeps theirs. An admin who
 * stops being one loses the open invitations they sent (answered: how many).
 */
export async function changeStaffRole(userId: string, role: StaffRole, { actor, request }: Caller, db: Db = getDb()): Promise<{ invitationsRevoked: number | null }> {
  return db.transaction(async (tx) => {
    const admins = await lockActiveAdmins(tx);
    const target = await staffRow(tx, userId);
    if (target.deactivatedAt)
      throw new AppError("staff", 409, STAFF_MESSAGES.alreadyDeactivated);
    if (target.role === role)
      throw new AppError("staff", 409, STAFF_MESSAGES.sameRole);
    if (role !== "admin" && isLastActiveAdmin(admins, userId))
      throw new AppError("staff", 409, STAFF_MESSAGES.lastAdmin);
    await tx
      .update(userRoles)
      .set({ role })
      .where(eq(userRoles.userId, userId));
    // Only a demoted admin had the authority to invite (null: the question does not arise).
    const revoked =
      target.role === "admin"
        ? await revokeInvitationsSentBy(tx, userId)
        : null;
    await writeAudit(tx, {
      actor,
      action: "staff.role_change",
      table: "user_roles",
      recordId: userId,
      details: {
        email: target.email,
        from: target.role,
        to: role,
        ...(revoked ? { invitationsRevoked: revoked } : {}),
      },
      request,
    });
    return { invitationsRevoked: revoked ? revoked.length : null };
  });
}

/**
 * Deactivate: the role row is marked, every session of the person is deleted (their session_mfa rows go
 * with them) and the open invitations they sent are revoked, in one transaction, so they are signed out
 * everywhere at once and nothing they started can still make staff; the session hook refuses them a
 * new session. Never oneself, never the last active admin.
 */
export async function deactivateStaff(userId: string, { actor, request }: Caller, db: Db = getDb()): Promise<{ sessionsEnded: number; invitationsRevoked: number }> {
  if (userId === actor.id)
    throw new AppError("staff", 403, STAFF_MESSAGES.ownDeactivate);
  return db.transaction(async (tx) => {
    const admins = await lockActiveAdmins(tx);
    const target = await staffRow(tx, userId);
    if (target.deactivatedAt)
      throw new AppError("staff", 409, STAFF_MESSAGES.alreadyDeactivated);
    if (isLastActiveAdmin(admins, userId))
      throw new AppError("staff", 409, STAFF_MESSAGES.lastAdmin);
    await tx
      .update(userRoles)
      .set({ deactivatedAt: sql`now()`, deactivatedBy: actor.id })
      .where(eq(userRoles.userId, userId));
    const sessionsEnded = await endAllSessions(userId, tx);
    const revoked = await revokeInvitationsSentBy(tx, userId);
    await writeAudit(tx, {
      actor,
      action: "staff.deactivate",
      table: "user_roles",
      recordId: userId,
      details: {
        email: target.email,
        role: target.role,
        sessionsEnded,
        invitationsRevoked: revoked,
      },
      request,
    });
    return { sessionsEnded, invitationsRevoked: revoked.length };
  });
}

/**
 * Reset Two-Factor for another staff member (lost phone): their enrolment, every verified session and
 * their passkeys are removed, so their next staff page asks them to enrol again. The passkeys go too
 * because one verified with PIN or biometrics stands in for the second factor: a lost phone may be
 * the passkey, and a reset that left it would not be a reset. They add passkeys again once enrolled.
 * Never one's own (403): a stolen session must not be able to swap the second factor.
 */
export async function resetStaffMfa(userId: string, { actor, request }: Caller, db: Db = getDb()): Promise<{ passkeysRemoved: number }> {
  if (userId === actor.id) throw new AppError("staff", 403, STAFF_MESSAGES.ownReset);
  return db.transaction(async (tx) => {
    const target = await staffRow(tx, userId);
    const { hadEnrolment, sessionsUnverified } = await removeSecondFactor(userId, tx);
    const passkeysRemoved = await removeAllPasskeys(tx, userId, "staff-mfa-reset", { actor, request });
    await writeAudit(tx, {
      actor,
      action: "staff.mfa_reset",
      table: "admin_mfa",
      recordId: userId,
      details: {
        email: target.email,
        hadEnrolment,
        sessionsUnverified,
        passkeysRemoved: passkeysRemoved.length,
      },
      request,
    });
    return { passkeysRemoved: passkeysRemoved.length };
  });
}

/**
 * An open, unexpired invitation by its token (the invitation page), sent by someone who is still an
 * active admin, or null: unknown, used, cancelled, expired and orphaned look alike.
 */
export async function findOpenInvitation(token: string, db: Db = getDb()) {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const [row] = await db
    .select({ ...invitationColumns, invitedBy: staffInvitations.invitedBy })
    .from(staffInvitations)
    .innerJoin(userRoles, isActiveAdmin(staffInvitations.invitedBy))
    .where(and(eq(staffInvitations.tokenHash, hashInvitationToken(token)), isOpenInvitation(), gt(staffInvitations.expiresAt, sql`now()`)))
    .limit(1);
  return row ?? null;
}

/**
 * Whether `inviterId` is an active admin, with their role row share-locked until the caller's
 * transaction ends: a deactivation or demotion (which locks it for update) waits for the acceptance,
 * or the acceptance waits for it and then sees the change. Role row first, invitation row second:
 * the order those take too, so the two never deadlock.
 */
export async function lockActiveInviter(tx: Tx, inviterId: string | null): Promise<boolean> {
  if (!inviterId) return false;
  const [row] = await tx.select({ userId: userRoles.userId }).from(userRoles).where(isActiveAdmin(inviterId)).for("share").limit(1);
  return Boolean(row);
}
