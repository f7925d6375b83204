import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ensureAdmin } from "~/server/accounts/admins.server";
import { getAuth } from "~/server/accounts/auth.server";
import { confirmEnrolment, startEnrolment, verifySession, type MfaCheck, type MfaUser } from "~/server/accounts/mfa.server";
import { currentStep, totpAt } from "~/server/accounts/totp.server";
import { adminMfa, session, sessionMfa } from "~/server/platform/db/schema.server";
import { testTargets, useTestDatabase } from "../helpers/test-db";
import { wrongTotpCode } from "../helpers/admins";
import { setUpTestConfig } from "../helpers/temp-config";

/**
 * The staff second factor under parallel requests (issue 16, item 1). A burst of wrong codes used to
 * be evaluated in full (each request read "4 failures, not locked" before any wrote), and a TOTP step
 * or a backup code could be accepted by several requests at once. PGlite is one connection and runs
 * the transactions one after another; the PostgreSQL run (TEST_DATABASE_URL, a pool of 10) is the one
 * where the requests really overlap and the row lock has to hold.
 */

const PASSWORD = "Str0ng!Passw0rd";
const LOCKED = "Too many wrong codes. Try again in 15 minutes.";
const WRONG = "That code is not valid. Check your authenticator app and try again.";

setUpTestConfig("mfa-race", { APP_SECRET: "m".repeat(48) });

const tally = (results: MfaCheck[]) => ({
  ok: results.filter((r) => r.ok).length,
  wrong: results.filter((r) => !r.ok && r.message === WRONG).length,
  locked: results.filter((r) => !r.ok && r.message === LOCKED).length,
});

describe.each(testTargets)("the admin second factor under parallel requests on %s", (target) => {
  const database = useTestDatabase({ target, global: true, poolSize: 10 });
  const db = () => database().db;
  let n = 0;

  /** A signed-in session of the admin (session_mfa rows point at real sessions). */
  async function newSession(userId: string, email: string): Promise<MfaUser> {
    const signedIn = await getAuth().api.signInEmail({ body: { email, password: PASSWORD } });
    const [row] = await db().select({ id: session.id }).from(session).where(eq(session.token, signedIn.token));
    return { id: userId, name: "Admin", email, sessionId: row!.id };
  }

  /** An admin with a pending enrolment; returns the secret and a fresh session. */
  async function pendingAdmin() {
    const email = `mfa-${target}-${++n}@example.com`;
    const { userId } = await ensureAdmin(database(), { email, password: PASSWORD });
    const user = await newSession(userId, email);
    const { secret } = await startEnrolment(user, db());
    return { user, secret, email };
  }

  /** An admin with an enabled factor, and a second session that still has to be verified. */
  async function enrolledAdmin() {
    const { user, secret, email } = await pendingAdmin();
    const enrolled = await confirmEnrolment(totpAt(secret, currentStep()), { actor: user, request: {} }, db());
    if (!enrolled.ok) throw new Error(enrolled.message);
    return { user: await newSession(user.id, email), secret, backupCodes: enrolled.backupCodes };
  }

  it("200 parallel wrong codes: five are evaluated, the rest refused as locked; the right code waits for the lock to end", async () => {
    const { user, secret } = await enrolledAdmin();
    const wrong = wrongTotpCode(secret);

    const results = await Promise.all(Array.from({ length: 200 }, () => verifySession(wrong, { actor: user, request: {} }, db())));
    expect(tally(results)).toEqual({ ok: 0, wrong: 5, locked: 195 });

    // The right code, and a backup code, are refused while the lock lasts, and the session stays unverified.
    expect(await verifySession(totpAt(secret, currentStep()), { actor: user, request: {} }, db())).toEqual({ ok: false, message: LOCKED });
    const [row] = await db()
      .select({ lockedFor: sql<number>`extract(epoch from ${adminMfa.lockedUntil} - now())::float8`, failedAttempts: adminMfa.failedAttempts })
      .from(adminMfa)
      .where(eq(adminMfa.userId, user.id));
    expect(row!.lockedFor).toBeGreaterThan(14 * 60);
    expect(row!.lockedFor).toBeLessThanOrEqual(15 * 60);
    expect(await db().select().from(sessionMfa).where(eq(sessionMfa.sessionId, user.sessionId))).toHaveLength(0);

    // Once the lock has ended the right code is accepted.
    await db().update(adminMfa).set({ lockedUntil: sql`now() - interval '1 second'` }).where(eq(adminMfa.userId, user.id));
    expect(await verifySession(totpAt(secret, currentStep() + 1), { actor: user, request: {} }, db())).toEqual({ ok: true });
    expect(await db().select().from(sessionMfa).where(eq(sessionMfa.sessionId, user.sessionId))).toHaveLength(1);
  });

  it("the right code racing ten wrong ones neither clears the lock nor lets more than five misses through after it", async () => {
    const { user, secret } = await enrolledAdmin();
    const wrong = wrongTotpCode(secret);
    const right = totpAt(secret, currentStep() + 1);
    const results = await Promise.all([...Array.from({ length: 10 }, () => verifySession(wrong, { actor: user, request: {} }, db())), verifySession(right, { actor: user, request: {} }, db())]);
    // Whatever the order: at most four misses before a success and five after it, and ten misses
    // always add up to a lock (a success that read the row before the misses must not clear it).
    expect(tally(results).wrong).toBeLessThanOrEqual(9);
    const [row] = await db()
      .select({ locked: sql<boolean>`coalesce(${adminMfa.lockedUntil} > now(), false)` })
      .from(adminMfa)
      .where(eq(adminMfa.userId, user.id));
    expect(row!.locked).toBe(true);
  });

  it("one backup code sent 50 times in parallel is accepted once", async () => {
    const { user, backupCodes } = await enrolledAdmin();
    const results = await Promise.all(Array.from({ length: 50 }, () => verifySession(backupCodes[0]!, { actor: user, request: {} }, db())));
    expect(results.filter((r) => r.ok)).toEqual([{ ok: true, usedBackupCode: true }]);
    const [row] = await db().select({ hashes: adminMfa.backupCodeHashes }).from(adminMfa).where(eq(adminMfa.userId, user.id));
    expect(row!.hashes).toHaveLength(9);
    // The 49 replays counted as misses (five, then the lock). Once the lock has ended the used code
    // is still a wrong code, while another backup code works.
    expect(tally(results)).toEqual({ ok: 1, wrong: 5, locked: 44 });
    await db().update(adminMfa).set({ lockedUntil: sql`now() - interval '1 second'` }).where(eq(adminMfa.userId, user.id));
    expect(await verifySession(backupCodes[0]!, { actor: user, request: {} }, db())).toEqual({ ok: false, message: WRONG });
    expect(await verifySession(backupCodes[1]!, { actor: user, request: {} }, db())).toEqual({ ok: true, usedBackupCode: true });
  });

  it("one TOTP code sent 20 times in parallel is accepted once", async () => {
    const { user, secret } = await enrolledAdmin();
    const code = totpAt(secret, currentStep() + 1);
    const results = await Promise.all(Array.from({ length: 20 }, () => verifySession(code, { actor: user, request: {} }, db())));
    // A replayed step is a miss like any other: five are evaluated, then the factor locks.
    expect(tally(results)).toEqual({ ok: 1, wrong: 5, locked: 14 });
  });

  it("the first code confirms an enrolment once: 20 parallel confirmations hand out one set of backup codes, and those work", async () => {
    const { user, secret, email } = await pendingAdmin();
    const code = totpAt(secret, currentStep());
    const results = await Promise.all(Array.from({ length: 20 }, () => confirmEnrolment(code, { actor: user, request: {} }, db())));
    const accepted = results.filter((r) => r.ok);
    expect(accepted).toHaveLength(1);
    const other = await newSession(user.id, email);
    expect(await verifySession(accepted[0]!.backupCodes[0]!, { actor: other, request: {} }, db())).toEqual({ ok: true, usedBackupCode: true });
  });

  it("a new enrolment cannot replace the secret of an enabled factor", async () => {
    const { user, secret } = await enrolledAdmin();
    await expect(startEnrolment(user, db())).rejects.toThrow("already set up");
    expect(await verifySession(totpAt(secret, currentStep() + 1), { actor: user, request: {} }, db())).toEqual({ ok: true });
  });
});
