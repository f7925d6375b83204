import { eq, getTableColumns, isNull, sql } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import QRCode from "qrcode";
import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";
import { getConfig } from "~/server/platform/config.server";
import { decryptField, encryptField } from "~/server/platform/crypto/field-encryption.server";
import { getDb, type Db, type DbOrTx } from "~/server/platform/db/client.server";
import { adminMfa, sessionMfa } from "~/server/platform/db/schema.server";
import { base32Encode, currentStep, generateTotpSecret, matchTotp, otpauthUri } from "./totp.server";

/**
 * The second factor for staff. An admin enrols a TOTP authenticator (QR code or manual key, plus
 * ten single-use backup codes) on their first visit to /admin, and each session must then be
 * verified with a code before any admin data is served. Five wrong codes lock the factor for 15
 * minutes. Secrets are encrypted with the field key; backup codes are stored as HMACs.
 */

export const MFA_SECRET_PURPOSE = "admin_mfa.secret";
const MAX_FAILURES = 5;
const LOCK_MINUTES = 15;
const BACKUP_CODES = 10;

export type MfaUser = { id: string; name: string; email: string; sessionId: string };
export type MfaState = "none" | "pending" | "enabled";
export type MfaFailure = { ok: false; message: string };
export type MfaCheck = { ok: true; usedBackupCode?: boolean } | MfaFailure;

function hashBackupCode(code: string): string {
  return createHmac("sha256", getConfig().appSecret).update(`backup:${code.toUpperCase().replace(/[^A-Z0-9]/g, "")}`).digest("hex");
}

function newBackupCodes(): string[] {
  return Array.from({ length: BACKUP_CODES }, () => {
    const raw = base32Encode(randomBytes(7)).slice(0, 10);
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
}

export async function getMfaState(userId: string, db: Db = getDb()): Promise<MfaState> {
  const [row] = await db.select({ enabledAt: adminMfa.enabledAt }).from(adminMfa).where(eq(adminMfa.userId, userId)).limit(1);
  if (!row) return "none";
  return row.enabledAt ? "enabled" : "pending";
}

export async function isSessionVerified(sessionId: string, db: Db = getDb()): Promise<boolean> {
  const rows = await db.select({ id: sessionMfa.sessionId }).from(sessionMfa).where(eq(sessionMfa.sessionId, sessionId)).limit(1);
  return rows.length > 0;
}

/** A pending enrolment: a fresh secret (replacing any earlier pending one) and its QR code. */
export async function startEnrolment(user: MfaUser, db: Db = getDb()) {
  const secret = generateTotpSecret();
  const encrypted = encryptField(secret, MFA_SECRET_PURPOSE);
  // Only a pending row is replaced, in the same statement that checks it: a state read first could
  // be stale by the time of the write and swap the secret of a factor enabled in between.
  const written = await db
    .insert(adminMfa)
    .values({ userId: user.id, secretEncrypted: encrypted, backupCodeHashes: [] })
    .onConflictDoUpdate({
      target: adminMfa.userId,
      set: { secretEncrypted: encrypted, backupCodeHashes: [], failedAttempts: 0, lockedUntil: null },
      setWhere: isNull(adminMfa.enabledAt),
    })
    .returning({ userId: adminMfa.userId });
  if (written.length === 0) throw new Error("The second factor is already set up.");
  const uri = otpauthUri(secret, user.email);
  const svg = await QRCode.toString(uri, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
  return { secret, uri, qrDataUrl: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}` };
}

/** The pending secret again (a reload of the enrolment page keeps the same QR code). */
export async function pendingEnrolment(user: MfaUser, db: Db = getDb()) {
  const [row] = await db.select().from(adminMfa).where(eq(adminMfa.userId, user.id)).limit(1);
  if (!row || row.enabledAt) return null;
  const secret = decryptField(row.secretEncrypted, MFA_SECRET_PURPOSE);
  const uri = otpauthUri(secret, user.email);
  const svg = await QRCode.toString(uri, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
  return { secret, uri, qrDataUrl: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}` };
}

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
type LockedRow = typeof adminMfa.$inferSelect & { locked: boolean };
type Match = { step?: number; remainingBackup?: string[] };

const LOCKED: MfaFailure = { ok: false, message: "Too many wrong codes. Try again in 15 minutes." };
const WRONG: MfaFailure = { ok: false, message: "That code is not valid. Check your authenticator app and try again." };

/**
 * The admin's factor row, locked (FOR UPDATE) until the caller's transaction ends. Every code check
 * runs under this lock: parallel requests for one admin queue here, so each sees the counter, the
 * lock, the last used TOTP step and the remaining backup codes as the previous one left them. Read
 * without it, 300 parallel guesses all saw "4 failures, not locked" and a replayed code or backup
 * code could be accepted by several requests at once.
 */
async function lockFactor(tx: Tx, userId: string): Promise<LockedRow | undefined> {
  const [row] = await tx
    .select({ ...getTableColumns(adminMfa), locked: sql<boolean>`coalesce(${adminMfa.lockedUntil} > now(), false)` })
    .from(adminMfa)
    .where(eq(adminMfa.userId, userId))
    .limit(1)
    .for("update");
  return row;
}

/**
 * Evaluates a code against a row the caller holds locked and not locked out. A miss is recorded
 * before returning (the fifth starts the 15-minute lock and clears the counter), in the caller's
 * transaction, so it counts even though the caller answers with a failure.
 */
async function matchCode(tx: Tx, row: LockedRow, code: string, allowBackup: boolean): Promise<Match | null> {
  const trimmed = code.trim();
  const secret = decryptField(row.secretEncrypted, MFA_SECRET_PURPOSE);
  const step = matchTotp(secret, trimmed.replace(/\s/g, ""), row.lastUsedStep ?? null);
  if (step !== null) return { step };
  if (allowBackup && trimmed.length >= 10) {
    const given = Buffer.from(hashBackupCode(trimmed), "hex");
    const remaining = row.backupCodeHashes.filter((h) => {
      const stored = Buffer.from(h, "hex");
      return !(stored.length === given.length && timingSafeEqual(stored, given));
    });
    if (remaining.length < row.backupCodeHashes.length) return { remainingBackup: remaining };
  }
  const failures = row.failedAttempts + 1;
  await tx
    .update(adminMfa)
    .set(
      failures >= MAX_FAILURES
        ? { failedAttempts: 0, lockedUntil: sql`now() + ${`${LOCK_MINUTES} minutes`}::interval` }
        : { failedAttempts: failures },
    )
    .where(eq(adminMfa.userId, row.userId));
  return null;
}

const NOT_ON = "Two-factor authentication is not on.";

/**
 * The check every act with a code starts with, under the factor row's lock: `refusal` names what is
 * wrong with the row for this act (missing, or in the wrong state), a locked factor is refused without
 * looking at the code, and a wrong code is refused (counted toward the lock by matchCode).
 */
async function checkCodeUnderLock(
  tx: Tx,
  userId: string,
  code: string,
  allowBackup: boolean,
  refusal: (row: LockedRow | undefined) => string | null,
): Promise<{ ok: true; match: Match } | MfaFailure> {
  const row = await lockFactor(tx, userId);
  const message = refusal(row);
  if (message !== null || !row) return { ok: false, message: message ?? NOT_ON };
  if (row.locked) return LOCKED;
  const match = await matchCode(tx, row, code, allowBackup);
  return match ? { ok: true, match } : WRONG;
}

/** For an act on an enabled factor: refused with `message` while there is none. */
const unlessEnabled = (message: string) => (row: LockedRow | undefined) => (row?.enabledAt ? null : message);

async function markVerified(db: DbOrTx, user: MfaUser): Promise<void> {
  await db.insert(sessionMfa).values({ sessionId: user.sessionId, userId: user.id }).onConflictDoNothing();
}

type FactorChanges = PgUpdateSetSource<typeof adminMfa>;

/** A good code clears the failure count and any lock, along with the act's own changes to the row. */
async function clearFailures(tx: Tx, userId: string, changes: FactorChanges): Promise<void> {
  await tx.update(adminMfa).set({ ...changes, failedAttempts: 0, lockedUntil: null }).where(eq(adminMfa.userId, userId));
}

/** A code that verified this session: the row changed (failures cleared), the session marked verified, the act audited. */
async function sessionVerified(
  tx: Tx,
  { actor: user, request }: Caller<MfaUser>,
  changes: FactorChanges,
  act: Omit<Parameters<typeof writeAudit>[1], "actor" | "request">,
): Promise<void> {
  await clearFailures(tx, user.id, changes);
  await markVerified(tx, user);
  await writeAudit(tx, { actor: user, ...act, request });
}

/**
 * Who the factor protects: staff must have it (audited as admin.mfa); for an applicant it is optional
 * and turning it on or off is audited as account.mfa_enable / account.mfa_disable.
 */
export type FactorOwner = "staff" | "applicant";

/** Confirms enrolment with a first code; returns the backup codes to show once. */
export async function confirmEnrolment(
  code: string,
  caller: Caller<MfaUser>,
  db: Db = getDb(),
  owner: FactorOwner = "staff",
): Promise<{ ok: true; backupCodes: string[] } | MfaFailure> {
  return db.transaction(async (tx): Promise<{ ok: true; backupCodes: string[] } | MfaFailure> => {
    const checked = await checkCodeUnderLock(tx, caller.actor.id, code, false, (row) =>
      !row ? "Start the set-up again: no authenticator is pending." : row.enabledAt ? "The second factor is already set up." : null,
    );
    if (!checked.ok) return checked;
    const { match } = checked;
    const backupCodes = newBackupCodes();
    await sessionVerified(
      tx,
      caller,
      { enabledAt: sql`now()`, lastUsedStep: match.step!, backupCodeHashes: backupCodes.map(hashBackupCode) },
      { action: owner === "staff" ? "admin.mfa" : "account.mfa_enable", table: "admin_mfa", recordId: caller.actor.id, details: { event: "enrolled" } },
    );
    return { ok: true, backupCodes };
  });
}

/**
 * Verifies this session with a TOTP code or a backup code. Lock check, evaluation, the failure count
 * and the success (TOTP step or backup code used up) happen in one transaction under the row lock:
 * at most five codes are evaluated before the lock, a request arriving while locked is refused
 * without looking at its code, and each TOTP step and backup code is accepted once.
 */
export async function verifySession(code: string, caller: Caller<MfaUser>, db: Db = getDb(), owner: FactorOwner = "staff"): Promise<MfaCheck> {
  return db.transaction(async (tx): Promise<MfaCheck> => {
    const checked = await checkCodeUnderLock(tx, caller.actor.id, code, true, unlessEnabled("Set up your authenticator first."));
    if (!checked.ok) return checked;
    const { match } = checked;
    const usedBackupCode = match.remainingBackup !== undefined;
    await sessionVerified(
      tx,
      caller,
      {
        ...(match.step !== undefined ? { lastUsedStep: match.step } : {}),
        ...(match.remainingBackup ? { backupCodeHashes: match.remainingBackup } : {}),
      },
      {
        // An applicant's sign-in code is not a staff event: the audit log says whose factor it was.
        action: owner === "staff" ? "admin.mfa" : "account.mfa_verify",
        table: "session_mfa",
        recordId: caller.actor.sessionId,
        details: { event: "verified", method: usedBackupCode ? "backup-code" : "totp" },
      },
    );
    return usedBackupCode ? { ok: true, usedBackupCode: true } : { ok: true };
  });
}

/**
 * A fresh set of ten backup codes (the old ones stop working), after a current code: whoever holds the
 * signed-in browser alone cannot mint codes. Under the row lock like every check, so a wrong code counts.
 */
export async function regenerateBackupCodes(code: string, { actor: user, request }: Caller<MfaUser>, db: Db = getDb()): Promise<{ ok: true; backupCodes: string[] } | MfaFailure> {
  return db.transaction(async (tx): Promise<{ ok: true; backupCodes: string[] } | MfaFailure> => {
    const checked = await checkCodeUnderLock(tx, user.id, code, false, unlessEnabled(NOT_ON));
    if (!checked.ok) return checked;
    const { match } = checked;
    const backupCodes = newBackupCodes();
    await clearFailures(tx, user.id, { lastUsedStep: match.step!, backupCodeHashes: backupCodes.map(hashBackupCode) });
    await writeAudit(tx, { actor: user, action: "account.mfa_enable", table: "admin_mfa", recordId: user.id, details: { event: "backup-codes-regenerated" }, request });
    return { ok: true, backupCodes };
  });
}

/**
 * A current TOTP code as a fresh proof of presence (before adding a passkey): not a backup code, since
 * the proof is meant to come from the device that holds the factor. Under the row lock like every check:
 * the step is used up (no replay) and a miss counts toward the 15-minute lock.
 */
export async function checkCurrentCode(user: { id: string }, code: string, db: Db = getDb()): Promise<{ ok: true } | MfaFailure> {
  return db.transaction(async (tx): Promise<{ ok: true } | MfaFailure> => {
    const checked = await checkCodeUnderLock(tx, user.id, code, false, unlessEnabled(NOT_ON));
    if (!checked.ok) return checked;
    const { match } = checked;
    await clearFailures(tx, user.id, { lastUsedStep: match.step! });
    return { ok: true };
  });
}

/**
 * Turns an applicant's factor off, proven by a current code or backup code (`code`), or by the password
 * the caller has already checked (`passwordVerified`). The row and every session's verification go in
 * one transaction; the code check runs under the row lock and a miss counts toward the lock.
 */
export async function disableFactor(
  proof: { code: string } | { passwordVerified: true },
  { actor: user, request }: Caller<MfaUser>,
  db: Db = getDb(),
): Promise<{ ok: true } | MfaFailure> {
  return db.transaction(async (tx): Promise<{ ok: true } | MfaFailure> => {
    const row = await lockFactor(tx, user.id);
    if (!row?.enabledAt) return { ok: false, message: NOT_ON };
    if ("code" in proof) {
      if (row.locked) return LOCKED;
      if (!(await matchCode(tx, row, proof.code, true))) return WRONG;
    }
    await tx.delete(adminMfa).where(eq(adminMfa.userId, user.id));
    await writeAudit(tx, {
      actor: user,
      action: "account.mfa_disable",
      table: "admin_mfa",
      recordId: user.id,
      details: { method: "code" in proof ? "code" : "password" },
      request,
    });
    return { ok: true };
  });
}

export { currentStep, markVerified };
