import { and, eq, sql } from "drizzle-orm";
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import QRCode from "qrcode";
import { writeAudit, type RequestInfo } from "~/server/audit.server";
import { getConfig } from "~/server/config.server";
import { decryptField, encryptField } from "~/server/crypto/field-encryption.server";
import { getDb, type Db } from "~/server/db/client.server";
import { adminMfa, sessionMfa } from "~/server/db/schema.server";
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
export type MfaCheck = { ok: true; usedBackupCode?: boolean } | { ok: false; message: string };

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
  if ((await getMfaState(user.id, db)) === "enabled") throw new Error("The second factor is already set up.");
  const secret = generateTotpSecret();
  const encrypted = encryptField(secret, MFA_SECRET_PURPOSE);
  await db
    .insert(adminMfa)
    .values({ userId: user.id, secretEncrypted: encrypted, backupCodeHashes: [] })
    .onConflictDoUpdate({ target: adminMfa.userId, set: { secretEncrypted: encrypted, backupCodeHashes: [], failedAttempts: 0, lockedUntil: null } });
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

type Row = typeof adminMfa.$inferSelect;

async function checkCode(db: Db, row: Row, code: string, allowBackup: boolean): Promise<MfaCheck & { step?: number; remainingBackup?: string[] }> {
  if (row.lockedUntil && row.lockedUntil.getTime() > Date.now()) {
    return { ok: false, message: "Too many wrong codes. Try again in 15 minutes." };
  }
  const trimmed = code.trim();
  const secret = decryptField(row.secretEncrypted, MFA_SECRET_PURPOSE);
  const step = matchTotp(secret, trimmed.replace(/\s/g, ""), row.lastUsedStep ?? null);
  if (step !== null) return { ok: true, step };
  if (allowBackup && trimmed.length >= 10) {
    const given = Buffer.from(hashBackupCode(trimmed), "hex");
    const remaining = row.backupCodeHashes.filter((h) => {
      const stored = Buffer.from(h, "hex");
      return !(stored.length === given.length && timingSafeEqual(stored, given));
    });
    if (remaining.length < row.backupCodeHashes.length) return { ok: true, usedBackupCode: true, remainingBackup: remaining };
  }
  const failures = row.failedAttempts + 1;
  await db
    .update(adminMfa)
    .set({
      failedAttempts: failures >= MAX_FAILURES ? 0 : failures,
      lockedUntil: failures >= MAX_FAILURES ? sql`now() + ${`${LOCK_MINUTES} minutes`}::interval` : row.lockedUntil,
    })
    .where(eq(adminMfa.userId, row.userId));
  return { ok: false, message: "That code is not valid. Check your authenticator app and try again." };
}

async function markVerified(db: Db, user: MfaUser): Promise<void> {
  await db.insert(sessionMfa).values({ sessionId: user.sessionId, userId: user.id }).onConflictDoNothing();
}

/** Confirms enrolment with a first code; returns the backup codes to show once. */
export async function confirmEnrolment(
  user: MfaUser,
  code: string,
  request: RequestInfo = {},
  db: Db = getDb(),
): Promise<{ ok: true; backupCodes: string[] } | { ok: false; message: string }> {
  const [row] = await db.select().from(adminMfa).where(eq(adminMfa.userId, user.id)).limit(1);
  if (!row) return { ok: false, message: "Start the set-up again: no authenticator is pending." };
  if (row.enabledAt) return { ok: false, message: "The second factor is already set up." };
  const result = await checkCode(db, row, code, false);
  if (!result.ok) return result;
  const backupCodes = newBackupCodes();
  await db.transaction(async (tx) => {
    await tx
      .update(adminMfa)
      .set({ enabledAt: sql`now()`, lastUsedStep: result.step!, backupCodeHashes: backupCodes.map(hashBackupCode), failedAttempts: 0, lockedUntil: null })
      .where(and(eq(adminMfa.userId, user.id), sql`${adminMfa.enabledAt} is null`));
    await tx.insert(sessionMfa).values({ sessionId: user.sessionId, userId: user.id }).onConflictDoNothing();
    await writeAudit(tx, { actor: user, action: "admin.mfa", table: "admin_mfa", recordId: user.id, details: { event: "enrolled" }, request });
  });
  return { ok: true, backupCodes };
}

/** Verifies this session with a TOTP code or a backup code (each backup code works once). */
export async function verifySession(user: MfaUser, code: string, request: RequestInfo = {}, db: Db = getDb()): Promise<MfaCheck> {
  const [row] = await db.select().from(adminMfa).where(eq(adminMfa.userId, user.id)).limit(1);
  if (!row?.enabledAt) return { ok: false, message: "Set up your authenticator first." };
  const result = await checkCode(db, row, code, true);
  if (!result.ok) return result;
  await db.transaction(async (tx) => {
    await tx
      .update(adminMfa)
      .set({
        failedAttempts: 0,
        lockedUntil: null,
        ...(result.step !== undefined ? { lastUsedStep: result.step } : {}),
        ...(result.remainingBackup ? { backupCodeHashes: result.remainingBackup } : {}),
      })
      .where(eq(adminMfa.userId, user.id));
    await tx.insert(sessionMfa).values({ sessionId: user.sessionId, userId: user.id }).onConflictDoNothing();
    await writeAudit(tx, {
      actor: user,
      action: "admin.mfa",
      table: "session_mfa",
      recordId: user.sessionId,
      details: { event: "verified", method: result.usedBackupCode ? "backup-code" : "totp" },
      request,
    });
  });
  return result.usedBackupCode ? { ok: true, usedBackupCode: true } : { ok: true };
}

export { currentStep, markVerified };
