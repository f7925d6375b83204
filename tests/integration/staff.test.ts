import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ensureStaff } from "~/server/accounts/admins.server";
import { getAuth } from "~/server/accounts/auth.server";
import { startEnrolment } from "~/server/accounts/mfa.server";
import {
  adminMfa,
  auditLog,
  emailOutbox,
  session,
  sessionMfa,
  staffInvitations,
  user,
  userRoles,
} from "~/server/platform/db/schema.server";
import {
  acceptInvitation,
  invitationForToken,
} from "~/server/staff/invitations.server";
import { staffAction } from "~/server/staff/staff-actions.server";
import { changeStaffRole, deactivateStaff, hashInvitationToken, inviteStaff, resetStaffMfa } from "~/server/staff/staff.server";
import { STAFF_MESSAGES } from "~/domain/validation/staff";
import { setUpTestConfig } from "../helpers/temp-config";
import { testTargets, useTestDatabase } from "../helpers/test-db";
import { AppError, isAppError } from "~/server/platform/http/app-error.server";

/**
 * Staff management (issue 22): invitations used once (also when posted twice at once), expiry, the
 * last active admin, deactivation ending every session, second-factor resets, and their audit rows.
 * PGlite runs transactions one after another; with TEST_DATABASE_URL the parallel cases really overlap.
 */

const PASSWORD = "Str0ng!Passw0rd";
const NEW_PASSWORD = "N3w!Staff-Pass";

setUpTestConfig("staff", { APP_SECRET: "s".repeat(48) });

describe.each(testTargets)("staff management on %s", (target) => {
  const database = useTestDatabase({ target, global: true, poolSize: 10 });
  const db = () => database().db;
  let n = 0;

  async function staff(role: "admin" | "loan_officer" | "auditor") {
    const email = `staff-${target}-${++n}@example.com`;
    const { userId } = await ensureStaff(database(), {
      email,
      password: PASSWORD,
      name: `Staff ${n}`,
      role,
    });
    return { id: userId, name: `Staff ${n}`, email };
  }

  async function auditRows(action: string, recordId: string) {
    return db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, action), eq(auditLog.recordId, recordId)));
  }

  /** A new admin's invitation of a new person (`<prefix>-…@example.com`) to `role`: who invited, the address, the token. */
  async function invited(prefix: string, name: string, role: "admin" | "loan_officer" | "auditor") {
    const admin = await staff("admin");
    const email = `${prefix}-${target}-${++n}@example.com`;
    return { admin, email, ...(await inviteStaff({ name, email, role }, { actor: admin, request: {} }, db())) };
  }

  const accept = (token: string, password = NEW_PASSWORD) =>
    acceptInvitation(
      token,
      { password, confirmPassword: password },
      {},
      database(),
    );

  it("invites by e-mail (link e-mailed, token stored only as its hash) and accepts once", async () => {
    const { email, token, invitationId } = await invited("invitee", "Ivy Invitee", "loan_officer");
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [row] = await db()
      .select()
      .from(staffInvitations)
      .where(eq(staffInvitations.id, invitationId));
    expect(row!.tokenHash).toBe(hashInvitationToken(token));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row!.expiresAt.getTime() - Date.now()).toBeGreaterThan(
      71 * 3600_000,
    );
    const [mail] = await db()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.toAddress, email));
    expect(mail!.textBody).toContain(`/auth/invite/${token}`);
    expect(await auditRows("staff.invite", invitationId)).toHaveLength(1);

    expect(await invitationForToken(token, database())).toMatchObject({
      name: "Ivy Invitee",
      email,
      role: "loan_officer",
      roleLabel: "Loan Officer",
    });
    const mismatch = await acceptInvitation(
      token,
      { password: NEW_PASSWORD, confirmPassword: "other" },
      {},
      database(),
    );
    expect(mismatch.ok).toBe(false);
    if (!mismatch.ok) expect(mismatch.status).toBe(400);

    const first = await accept(token);
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    expect(first.headers.getSetCookie().join(";")).toMatch(/session_token/);
    const [role] = await db()
      .select()
      .from(userRoles)
      .where(eq(userRoles.userId, first.userId));
    expect(role!.role).toBe("loan_officer");
    const [account] = await db()
      .select()
      .from(user)
      .where(eq(user.id, first.userId));
    expect(account!.emailVerified).toBe(true);
    expect(await auditRows("staff.invite_accept", invitationId)).toHaveLength(
      1,
    );

    const second = await accept(token);
    expect(second.ok).toBe(false);
    if (!second.ok) expect(second.status).toBe(410);
    expect(await invitationForToken(token, database())).toBeNull();
  });

  it("two parallel accepts of one link make exactly one account", async () => {
    const { email, token } = await invited("parallel", "Para Llel", "auditor");
    const results = await Promise.all([
      accept(token),
      accept(token),
      accept(token),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    const accounts = await db()
      .select()
      .from(user)
      .where(eq(user.email, email));
    expect(accounts).toHaveLength(1);
    const roles = await db()
      .select()
      .from(userRoles)
      .where(eq(userRoles.userId, accounts[0]!.id));
    expect(roles.map((r) => r.role)).toEqual(["auditor"]);
  });

  it("refuses an expired link, a cancelled one and one replaced by a newer invitation", async () => {
    const { admin, email, token, invitationId } = await invited("late", "Late Comer", "auditor");
    await db()
      .update(staffInvitations)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(staffInvitations.id, invitationId));
    expect(await invitationForToken(token, database())).toBeNull();
    const late = await accept(token);
    expect(late.ok).toBe(false);
    if (!late.ok)
      expect(late.body.toast.description).toBe(STAFF_MESSAGES.linkInvalid);
    expect(
      await db().select().from(user).where(eq(user.email, email)),
    ).toHaveLength(0);

    // Re-inviting replaces the open invitation: the old link stops working.
    const again = `again-${target}-${++n}@example.com`;
    const old = await inviteStaff(
      { name: "Re Invited", email: again, role: "auditor" },
      { actor: admin, request: {} },
      db(),
    );
    const fresh = await inviteStaff(
      { name: "Re Invited", email: again, role: "loan_officer" },
      { actor: admin, request: {} },
      db(),
    );
    expect((await accept(old.token)).ok).toBe(false);
    // Cancel Invitation through the page's action.
    const form = new FormData();
    form.set("intent", "cancel-invitation");
    form.set("invitationId", fresh.invitationId);
    const cancelled = await staffAction(
      new Request("http://localhost/admin/staff", {
        method: "POST",
        body: form,
      }),
      { actor: admin, request: {} },
      db(),
    );
    expect(cancelled.status).toBe(200);
    expect((await accept(fresh.token)).ok).toBe(false);
    expect(
      await auditRows("staff.invite_revoke", fresh.invitationId),
    ).toHaveLength(1);
  });

  it("refuses to invite an address that already has an account", async () => {
    const admin = await staff("admin");
    const existing = await staff("auditor");
    await expect(
      inviteStaff(
        { name: "Dup", email: existing.email.toUpperCase(), role: "auditor" },
        { actor: admin, request: {} },
        db(),
      ),
    ).rejects.toMatchObject({
      status: 409,
      message: STAFF_MESSAGES.accountExists,
    });
  });

  it("the last active admin cannot be demoted or deactivated, also by two admins at once", async () => {
    // Leave exactly two active admins: every earlier admin is demoted first.
    const [a, b] = [await staff("admin"), await staff("admin")];
    await db()
      .update(userRoles)
      .set({ role: "auditor" })
      .where(
        and(
          eq(userRoles.role, "admin"),
          sql`${userRoles.userId} not in (${a.id}, ${b.id})`,
        ),
      );
    const results = await Promise.allSettled([
      changeStaffRole(b.id, "loan_officer", { actor: a, request: {} }, db()),
      changeStaffRole(a.id, "loan_officer", { actor: b, request: {} }, db()),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find(
      (r) => r.status === "rejected",
    ) as PromiseRejectedResult;
    expect(refused.reason).toSatisfy((e) => isAppError(e, "staff"));
    expect((refused.reason as AppError).message).toBe(
      STAFF_MESSAGES.lastAdmin,
    );
    const admins = await db()
      .select()
      .from(userRoles)
      .where(
        and(
          eq(userRoles.role, "admin"),
          sql`${userRoles.deactivatedAt} is null`,
        ),
      );
    expect(admins).toHaveLength(1);
    const last = admins[0]!.userId === a.id ? a : b;
    const other = last === a ? b : a;
    await expect(
      changeStaffRole(last.id, "auditor", { actor: last, request: {} }, db()),
    ).rejects.toMatchObject({ status: 409, message: STAFF_MESSAGES.lastAdmin });
    // The other (now a loan officer) cannot act as admin here, but the rule holds whoever asks.
    await expect(
      deactivateStaff(last.id, { actor: other, request: {} }, db()),
    ).rejects.toMatchObject({ status: 409, message: STAFF_MESSAGES.lastAdmin });
    await expect(
      deactivateStaff(last.id, { actor: last, request: {} }, db()),
    ).rejects.toMatchObject({
      status: 403,
      message: STAFF_MESSAGES.ownDeactivate,
    });
    expect(await auditRows("staff.role_change", other.id)).toHaveLength(1);
    // Back to two admins for the rest of the file.
    await changeStaffRole(other.id, "admin", { actor: last, request: {} }, db());
  });

  it("deactivating ends every session at once and blocks sign-in with the right password", async () => {
    const admin = await staff("admin");
    const officer = await staff("loan_officer");
    await getAuth().api.signInEmail({
      body: { email: officer.email, password: PASSWORD },
    });
    await getAuth().api.signInEmail({
      body: { email: officer.email, password: PASSWORD },
    });
    // The sign-up made one more (Better Auth signs a new account in).
    const before = await db()
      .select()
      .from(session)
      .where(eq(session.userId, officer.id));
    expect(before.length).toBeGreaterThanOrEqual(2);
    const { sessionsEnded } = await deactivateStaff(
      officer.id,
      { actor: admin, request: {} },
      db(),
    );
    expect(sessionsEnded).toBe(before.length);
    expect(
      await db().select().from(session).where(eq(session.userId, officer.id)),
    ).toHaveLength(0);
    await expect(
      getAuth().api.signInEmail({
        body: { email: officer.email, password: PASSWORD },
      }),
    ).rejects.toBeTruthy();
    expect(
      await db().select().from(session).where(eq(session.userId, officer.id)),
    ).toHaveLength(0);
    const [audit] = await auditRows("staff.deactivate", officer.id);
    expect(audit!.actorId).toBe(admin.id);
    await expect(
      deactivateStaff(officer.id, { actor: admin, request: {} }, db()),
    ).rejects.toMatchObject({ status: 409 });
  });

  it("resets another's second factor (enrolment and verified sessions go) and refuses one's own", async () => {
    const admin = await staff("admin");
    const officer = await staff("loan_officer");
    const signedIn = await getAuth().api.signInEmail({
      body: { email: officer.email, password: PASSWORD },
    });
    const [row] = await db()
      .select({ id: session.id })
      .from(session)
      .where(eq(session.token, signedIn.token));
    await startEnrolment({ ...officer, sessionId: row!.id }, db());
    await db()
      .insert(sessionMfa)
      .values({ sessionId: row!.id, userId: officer.id });
    await resetStaffMfa(officer.id, { actor: admin, request: {} }, db());
    expect(
      await db().select().from(adminMfa).where(eq(adminMfa.userId, officer.id)),
    ).toHaveLength(0);
    expect(
      await db()
        .select()
        .from(sessionMfa)
        .where(eq(sessionMfa.userId, officer.id)),
    ).toHaveLength(0);
    expect(await auditRows("staff.mfa_reset", officer.id)).toHaveLength(1);
    await expect(
      resetStaffMfa(admin.id, { actor: admin, request: {} }, db()),
    ).rejects.toMatchObject({ status: 403, message: STAFF_MESSAGES.ownReset });
  });

  it("the action answers 400 for an unknown intent, a bad id or control characters, 403 for one's own reset, 404 for an unknown id", async () => {
    const admin = await staff("admin");
    const post = (fields: Record<string, string>) => staffPost(admin, fields);
    expect((await post({ intent: "promote-everyone" })).status).toBe(400);
    expect(
      (await post({ intent: "deactivate", userId: "not an id!" })).status,
    ).toBe(400);
    const invite = (name: string, role: string) =>
      post({ intent: "invite", name, email: "x@example.com", role });
    expect((await invite("Bad\u0000Name", "auditor")).status).toBe(400);
    expect((await invite("x".repeat(101), "auditor")).status).toBe(400);
    expect((await invite("Role Less", "owner")).status).toBe(400);
    expect((await post({ intent: "reset-mfa", userId: admin.id })).status).toBe(
      403,
    );
    expect(
      (
        await post({
          intent: "change-role",
          userId: "NoSuchUser123",
          role: "auditor",
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await post({
          intent: "cancel-invitation",
          invitationId: "00000000-0000-4000-8000-000000000000",
        })
      ).status,
    ).toBe(404);
  });

  // Invitations must not outlive the admin who sent them.
  const staffPost = (
    actor: { id: string; name: string; email: string },
    fields: Record<string, string>,
  ) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    return staffAction(
      new Request("http://localhost/admin/staff", {
        method: "POST",
        body: form,
      }),
      { actor, request: {} },
      db(),
    );
  };
  const invite = (
    inviter: { id: string; name: string; email: string },
    role: "admin" | "loan_officer" | "auditor" = "loan_officer",
  ) =>
    inviteStaff(
      { name: "Olive Open", email: `open-${target}-${++n}@example.com`, role },
      { actor: inviter, request: {} },
      db(),
    );
  const accountsFor = (email: string) =>
    db().select({ id: user.id }).from(user).where(eq(user.email, email));

  it("Deactivate revokes the open invitations the person sent and says how many; another admin's stay open", async () => {
    const [boss, leaving, other] = [
      await staff("admin"),
      await staff("admin"),
      await staff("admin"),
    ];
    const sent = [await invite(leaving, "admin"), await invite(leaving)];
    const kept = await invite(other);
    const answer = await staffPost(boss, {
      intent: "deactivate",
      userId: leaving.id,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.toast.description).toContain(
      "The 2 open invitations they sent were cancelled.",
    );
    for (const { token } of sent) {
      expect(await invitationForToken(token, database())).toBeNull();
      const refused = await accept(token);
      expect(refused).toMatchObject({ ok: false, status: 410 });
    }
    expect(await invitationForToken(kept.token, database())).not.toBeNull();
    const [audit] = await auditRows("staff.deactivate", leaving.id);
    expect(
      (
        audit!.details as { invitationsRevoked: string[] }
      ).invitationsRevoked.sort(),
    ).toEqual(sent.map((i) => i.invitationId).sort());
    // Nobody with no invitations: said too.
    const quiet = await staff("loan_officer");
    expect(
      (await staffPost(boss, { intent: "deactivate", userId: quiet.id })).body
        .toast.description,
    ).toContain("They had no open invitations to cancel.");
  });

  it("demoting an admin revokes the open invitations they sent (and says so); other role changes do not touch invitations", async () => {
    const [boss, demoted] = [await staff("admin"), await staff("admin")];
    const { token } = await invite(demoted);
    const answer = await staffPost(boss, {
      intent: "change-role",
      userId: demoted.id,
      role: "auditor",
    });
    expect(answer.status).toBe(200);
    expect(answer.body.toast.description).toBe(
      "The staff member is now Auditor. The 1 open invitation they sent was cancelled.",
    );
    expect(await accept(token)).toMatchObject({ ok: false, status: 410 });
    // Auditor to Loan Officer: no admin authority involved, nothing said about invitations.
    const moved = await staffPost(boss, {
      intent: "change-role",
      userId: demoted.id,
      role: "loan_officer",
    });
    expect(moved.body.toast.description).toBe(
      "The staff member is now Loan Officer.",
    );
  });

  it("accepting re-checks that the inviter is still an active admin: a link from one deactivated or demoted by other means makes no account", async () => {
    const inviter = await staff("admin");
    const { token } = await invite(inviter);
    const [row] = await db()
      .select({ email: staffInvitations.email })
      .from(staffInvitations)
      .where(eq(staffInvitations.tokenHash, hashInvitationToken(token)));
    // The invitation itself is still open (as one sent before revocation existed would be).
    await db()
      .update(userRoles)
      .set({ deactivatedAt: new Date() })
      .where(eq(userRoles.userId, inviter.id));
    expect(await invitationForToken(token, database())).toBeNull();
    expect(await accept(token)).toMatchObject({ ok: false, status: 410 });
    expect(await accountsFor(row!.email)).toHaveLength(0);
    await db()
      .update(userRoles)
      .set({ deactivatedAt: null, role: "loan_officer" })
      .where(eq(userRoles.userId, inviter.id));
    expect(await accept(token)).toMatchObject({ ok: false, status: 410 });
    await db()
      .update(userRoles)
      .set({ role: "admin" })
      .where(eq(userRoles.userId, inviter.id));
    expect((await accept(token)).ok).toBe(true);
  });

  it("deactivating the inviter while the invitation is accepted: either it was accepted first (a staff member with the role) or revoked (no account), never a new staff member after the revocation", async () => {
    const boss = await staff("admin");
    for (let round = 0; round < 4; round++) {
      const inviter = await staff("admin");
      const { token, invitationId } = await invite(inviter);
      const [deactivated, accepted] = await Promise.all([
        deactivateStaff(inviter.id, { actor: boss, request: {} }, db()),
        accept(token),
      ]);
      const [inv] = await db()
        .select()
        .from(staffInvitations)
        .where(eq(staffInvitations.id, invitationId));
      if (accepted.ok) {
        expect(inv!.acceptedAt).not.toBeNull();
        expect(inv!.revokedAt).toBeNull();
        expect(deactivated.invitationsRevoked).toBe(0);
        const [role] = await db()
          .select()
          .from(userRoles)
          .where(eq(userRoles.userId, accepted.userId));
        expect(role!.role).toBe("loan_officer");
      } else {
        expect(inv!.acceptedAt).toBeNull();
        expect(inv!.revokedAt).not.toBeNull();
        expect(deactivated.invitationsRevoked).toBe(1);
        expect(await accountsFor(inv!.email)).toHaveLength(0);
      }
    }
  });
});
