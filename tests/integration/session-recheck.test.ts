import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { recheckSessions } from "~/server/accounts/session-recheck.server";
import { SESSION_ABSOLUTE_LIMIT_MS } from "~/server/accounts/auth.server";
import { adminMfa, session, sessionMfa } from "~/server/platform/db/schema.server";
import { testTargets, useTestDatabase } from "../helpers/test-db";
import { grantStaffRole, seedUser } from "../helpers/seed";

/**
 * The live-update heartbeats look their sessions up together (decision 0046): the answer must be the
 * one a page request would get for each session — gone, expired, past the absolute limit, deactivated
 * staff and an unpassed second factor are signed out; a role and a passed second factor are carried.
 */

describe.each(testTargets)("sessions looked up again together on %s", (target) => {
  const getDb = useTestDatabase({ target, global: true });
  const hour = 3600_000;

  async function person(id: string, extra: { role?: "admin"; deactivated?: boolean; factorOn?: boolean } = {}) {
    const { db } = getDb();
    await seedUser(db, { id, name: id, email: `${id}@example.com` });
    if (extra.role) await grantStaffRole(db, id, extra.role, { deactivatedAt: extra.deactivated ? new Date() : undefined });
    if (extra.factorOn) await db.insert(adminMfa).values({ userId: id, secretEncrypted: "x", backupCodeHashes: [], enabledAt: new Date() });
  }
  async function sessionOf(userId: string, id: string, extra: { expiresAt?: Date; createdAt?: Date; mfa?: boolean } = {}) {
    const { db } = getDb();
    await db.insert(session).values({ id, token: `t-${id}`, userId, expiresAt: extra.expiresAt ?? new Date(Date.now() + hour), ...(extra.createdAt ? { createdAt: extra.createdAt } : {}) });
    if (extra.mfa) await db.insert(sessionMfa).values({ sessionId: id, userId });
  }

  it("answers for many sessions in one call, as a page request would for each", async () => {
    await person("ann");
    await sessionOf("ann", "ann-1");
    await sessionOf("ann", "ann-expired", { expiresAt: new Date(Date.now() - 1000) });
    await sessionOf("ann", "ann-ancient", { createdAt: new Date(Date.now() - SESSION_ABSOLUTE_LIMIT_MS - hour) });
    await person("boss", { role: "admin" });
    await sessionOf("boss", "boss-verified", { mfa: true });
    await sessionOf("boss", "boss-unverified");
    await person("gone-staff", { role: "admin", deactivated: true });
    await sessionOf("gone-staff", "gone-staff-1", { mfa: true });
    await person("careful", { factorOn: true });
    await sessionOf("careful", "careful-pending");
    await sessionOf("careful", "careful-passed", { mfa: true });

    const found = await recheckSessions([
      "ann-1",
      "ann-1",
      "ann-expired",
      "ann-ancient",
      "boss-verified",
      "boss-unverified",
      "gone-staff-1",
      "careful-pending",
      "careful-passed",
      "never-existed",
    ]);
    expect(Object.fromEntries(found)).toEqual({
      "ann-1": { id: "ann", isStaff: false, mfaVerified: false },
      "boss-verified": { id: "boss", isStaff: true, mfaVerified: true },
      "boss-unverified": { id: "boss", isStaff: true, mfaVerified: false },
      "careful-passed": { id: "careful", isStaff: false, mfaVerified: true },
    });
  });

  it("a session deleted since (sign-out, revocation) is no longer in the answer", async () => {
    await person("dan");
    await sessionOf("dan", "dan-1");
    expect(await recheckSessions(["dan-1"])).toHaveProperty("size", 1);
    await getDb().db.delete(session).where(eq(session.id, "dan-1"));
    expect(await recheckSessions(["dan-1"])).toHaveProperty("size", 0);
  });

  it("more sessions than one statement's worth are all answered", async () => {
    await person("many");
    const ids = Array.from({ length: 1500 }, (_, i) => `many-${i}`);
    await getDb()
      .db.insert(session)
      .values(ids.map((id) => ({ id, token: `t-${id}`, userId: "many", expiresAt: new Date(Date.now() + hour) })));
    expect((await recheckSessions(ids)).size).toBe(1500);
  });
});
