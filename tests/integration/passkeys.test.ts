import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { CredentialInput } from "~/domain/validation/account-security";
import { accountSecurityAction } from "~/server/accounts/security.server";
import { accountSettingsAction } from "~/server/accounts/settings.server";
import { ensureAdmin } from "~/server/accounts/admins.server";
import { getAuth } from "~/server/accounts/auth.server";
import { passkeyAction } from "~/server/accounts/passkey-sign-in.server";
import type { SessionUser } from "~/server/accounts/session.server";
import { authenticationOptions, registerPasskey, registrationOptions, relyingParty, removePasskey, verifyAssertion } from "~/server/accounts/webauthn.server";
import { confirmEnrolment, startEnrolment } from "~/server/accounts/mfa.server";
import { currentStep, totpAt } from "~/server/accounts/totp.server";
import { auditLog, emailOutbox, passkeys, session, sessionMfa, webauthnChallenges } from "~/server/platform/db/schema.server";
import { resetStaffMfa } from "~/server/staff/staff.server";
import { assertionResponse, newSoftPasskey, registrationResponse, type SoftPasskey } from "../helpers/soft-authenticator";
import { setUpTestConfig } from "../helpers/temp-config";
import { testTargets, useTestDatabase } from "../helpers/test-db";

/**
 * Passkeys (issue 23) against a software authenticator: a challenge answers one ceremony once, also
 * when the same answer arrives many times at once (PostgreSQL, a pool of 10, is where they overlap);
 * the signature counter only moves forward; a sign-in verified with user verification (UV) is the
 * session's second factor and one without is not; another person's passkey is not removable. A passkey
 * must not outlive recovery: adding one needs a fresh proof and e-mails the owner, Change Password can
 * remove them all, and a staff Reset Two-Factor removes them.
 */

const PASSWORD = "Str0ng!Passw0rd";
setUpTestConfig("passkeys", { APP_SECRET: "p".repeat(48) });

const asCredential = (value: unknown) => value as CredentialInput;

describe.each(testTargets)("passkeys on %s", (target) => {
  const database = useTestDatabase({ target, global: true, poolSize: 10 });
  const db = () => database().db;
  let n = 0;

  async function applicant() {
    const email = `passkey-${target}-${++n}@example.com`;
    const created = await getAuth().api.signUpEmail({ body: { email, password: PASSWORD, name: "Pat Passkey" } });
    return { id: created.user.id, name: "Pat Passkey", email };
  }

  async function withPasskey(user: { id: string; name: string; email: string }) {
    const key = newSoftPasskey(user.id);
    const options = await registrationOptions(db(), user);
    await registerPasskey(db(), "Test key", asCredential(registrationResponse(key, options.challenge, relyingParty())), { actor: user, request: {} });
    return key;
  }

  async function signInForm(key: SoftPasskey, opts: { uv?: boolean; counter?: number } = {}) {
    const options = await authenticationOptions(db(), "authenticate", null);
    const form = new FormData();
    form.set("intent", "sign-in");
    form.set("credential", JSON.stringify(assertionResponse(key, options.challenge, relyingParty(), opts)));
    return form;
  }

  const meta = { ip: "198.51.100.7", headers: new Headers(), info: {} };

  it("a registration challenge is used once: ten parallel answers with it store one passkey", async () => {
    const user = await applicant();
    const key = newSoftPasskey(user.id);
    const options = await registrationOptions(db(), user);
    const answer = asCredential(registrationResponse(key, options.challenge, relyingParty()));
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => registerPasskey(db(), "Laptop", answer, { actor: user, request: {} })));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results.filter((r) => r.status === "rejected")) expect((r as PromiseRejectedResult).reason.message).toMatch(/expired or was already used/);
    expect(await db().select().from(passkeys).where(eq(passkeys.userId, user.id))).toHaveLength(1);
    const [challenge] = await db().select().from(webauthnChallenges).where(eq(webauthnChallenges.challenge, options.challenge));
    expect(challenge!.consumedAt).not.toBeNull();
  });

  it("a sign-in challenge is used once: ten parallel assertions with it pass once", async () => {
    const user = await applicant();
    const key = await withPasskey(user);
    const options = await authenticationOptions(db(), "authenticate", null);
    const answer = asCredential(assertionResponse(key, options.challenge, relyingParty()));
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => verifyAssertion(db(), answer, "authenticate", null)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
  });

  it("a challenge made for one account does not answer for another, nor for another purpose", async () => {
    const user = await applicant();
    const other = await applicant();
    const key = newSoftPasskey(user.id);
    const options = await registrationOptions(db(), other);
    await expect(registerPasskey(db(), "Laptop", asCredential(registrationResponse(key, options.challenge, relyingParty())), { actor: user, request: {} })).rejects.toThrow(/expired or was already used/);
    const signIn = await authenticationOptions(db(), "authenticate", null);
    await expect(registerPasskey(db(), "Laptop", asCredential(registrationResponse(key, signIn.challenge, relyingParty())), { actor: user, request: {} })).rejects.toThrow(/expired or was already used/);
  });

  it("the counter only moves forward: a replayed or lower counter is refused, a higher one passes", async () => {
    const user = await applicant();
    const key = await withPasskey(user);
    const first = await signInForm(key, { counter: 5 });
    expect((await passkeyAction(first, null, meta, db())).status).toBe(200);
    for (const counter of [5, 3]) {
      const replay = await passkeyAction(await signInForm(key, { counter }), null, meta, db());
      expect(replay.status).toBe(400);
    }
    expect((await passkeyAction(await signInForm(key, { counter: 6 }), null, meta, db())).status).toBe(200);
    const [row] = await db().select({ counter: passkeys.counter }).from(passkeys).where(eq(passkeys.userId, user.id));
    expect(row!.counter).toBe(6);
  });

  it("a UV sign-in is the session's second factor (staff land on /admin); without UV, staff go to /admin/mfa and the session is not verified", async () => {
    const email = `passkey-staff-${target}-${++n}@example.com`;
    const { userId } = await ensureAdmin(database(), { email, password: PASSWORD });
    const staff = { id: userId, name: "Admin", email };
    const key = await withPasskey(staff);
    const before = new Set((await db().select({ id: session.id }).from(session).where(eq(session.userId, userId))).map((r) => r.id));

    const withUv = await passkeyAction(await signInForm(key, { uv: true }), null, meta, db());
    expect(withUv.body).toEqual({ ok: true, redirectTo: "/admin" });
    expect(withUv.headers?.["Set-Cookie"]).toMatch(/session_token=/);
    const without = await passkeyAction(await signInForm(key, { uv: false }), null, meta, db());
    expect(without.body).toEqual({ ok: true, redirectTo: "/admin/mfa?redirectTo=%2Fadmin" });

    const sessions = (await db().select({ id: session.id, createdAt: session.createdAt }).from(session).where(eq(session.userId, userId)).orderBy(session.createdAt)).filter(
      (s) => !before.has(s.id),
    );
    const verified = new Set((await db().select({ id: sessionMfa.sessionId }).from(sessionMfa).where(eq(sessionMfa.userId, userId))).map((r) => r.id));
    expect(sessions).toHaveLength(2);
    expect(verified.has(sessions[0]!.id)).toBe(true);
    expect(verified.has(sessions[1]!.id)).toBe(false);
    const audits = await db().select({ details: auditLog.details }).from(auditLog).where(eq(auditLog.action, "passkey.sign_in"));
    expect(audits.filter((a) => (a.details as { userVerified?: boolean }).userVerified === false).length).toBeGreaterThan(0);
  });

  it("as a signed-in session's second factor a passkey must verify the user, and must be that user's", async () => {
    const user = await applicant();
    const key = await withPasskey(user);
    const stranger = await applicant();
    const strangerKey = await withPasskey(stranger);
    const signedIn = await getAuth().api.signInEmail({ body: { email: user.email, password: PASSWORD } });
    const [row] = await db().select({ id: session.id }).from(session).where(eq(session.token, signedIn.token));
    const sessionUser: SessionUser = { ...user, isStaff: false, role: null, mfaVerified: false, secondFactorPending: true, sessionId: row!.id };

    const answer = async (k: SoftPasskey, uv: boolean) => {
      const form = new FormData();
      form.set("intent", "second-factor-options");
      const options = (await passkeyAction(form, sessionUser, meta, db())).body as { ok: true; options: { challenge: string; userVerification: string } };
      expect(options.options.userVerification).toBe("required");
      const post = new FormData();
      post.set("intent", "second-factor");
      post.set("credential", JSON.stringify(assertionResponse(k, options.options.challenge, relyingParty(), { uv })));
      return passkeyAction(post, sessionUser, meta, db());
    };
    expect((await answer(key, false)).status).toBe(400);
    expect((await answer(strangerKey, true)).status).toBe(400);
    expect(await db().select().from(sessionMfa).where(eq(sessionMfa.sessionId, row!.id))).toHaveLength(0);
    expect((await answer(key, true)).body).toEqual({ ok: true, redirectTo: "/dashboard" });
    expect(await db().select().from(sessionMfa).where(eq(sessionMfa.sessionId, row!.id))).toHaveLength(1);
  });

  it("another person's passkey cannot be removed (404); one's own can, audited", async () => {
    const owner = await applicant();
    const other = await applicant();
    await withPasskey(owner);
    const [key] = await db().select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.userId, owner.id));
    await expect(removePasskey(db(), key!.id, { actor: other, request: {} })).rejects.toMatchObject({ status: 404 });
    await removePasskey(db(), key!.id, { actor: owner, request: {} });
    expect(await db().select().from(passkeys).where(eq(passkeys.userId, owner.id))).toHaveLength(0);
    const audits = await db().select().from(auditLog).where(eq(auditLog.recordId, key!.id));
    expect(audits.map((a) => a.action).sort()).toEqual(["passkey.add", "passkey.remove"]);
  });

  it("a closed account's passkey does not sign in", async () => {
    const user = await applicant();
    const key = await withPasskey(user);
    const { profiles } = await import("~/server/platform/db/schema.server");
    await db().update(profiles).set({ closedAt: new Date() }).where(eq(profiles.id, user.id));
    const refused = await passkeyAction(await signInForm(key), null, meta, db());
    expect(refused.status).toBe(401);
    expect(await db().select().from(session).where(eq(session.userId, user.id))).toHaveLength(1);
  });

  const asSessionUser = (u: { id: string; name: string; email: string }, staff = false): SessionUser => ({
    ...u,
    isStaff: staff,
    role: staff ? "admin" : null,
    mfaVerified: staff,
    secondFactorPending: false,
    sessionId: `session-${u.id}`,
  });
  const securityPost = (who: SessionUser, fields: Record<string, string>) =>
    accountSecurityAction(
      new Request("http://localhost/account/security", { method: "POST", body: new URLSearchParams(fields), headers: { "Content-Type": "application/x-www-form-urlencoded" } }),
      { actor: who, request: { ip: "198.51.100.7" } },
    );
  const passkeysOf = (userId: string) => db().select({ id: passkeys.id, name: passkeys.name }).from(passkeys).where(eq(passkeys.userId, userId));

  it("Add Passkey needs a fresh proof (the password, or a current code when two-factor is on) and e-mails the owner", async () => {
    const user = await applicant();
    const signedIn = await getAuth().api.signInEmail({ body: { email: user.email, password: PASSWORD } });
    const [row] = await db().select({ id: session.id }).from(session).where(eq(session.token, signedIn.token));
    const me = { ...asSessionUser(user), sessionId: row!.id };
    // A signed-in browser alone (a stolen session) gets no creation options, so it can add no passkey.
    const bare = await securityPost(me, { intent: "passkey-options" });
    expect(bare.status).toBe(400);
    expect(bare.body.fieldErrors?.password?.[0]).toMatch(/enter your password/);
    const wrong = await securityPost(me, { intent: "passkey-options", password: "Wrong!Pass1" });
    expect(wrong.status).toBe(400);
    expect(wrong.body.fieldErrors?.password).toEqual(["The password is not correct."]);
    expect((await securityPost(me, { intent: "passkey-options", code: "123456" })).body.fieldErrors?.code?.[0]).toMatch(/not on/);
    expect(await db().select().from(webauthnChallenges).where(eq(webauthnChallenges.userId, user.id))).toHaveLength(0);

    const proven = await securityPost(me, { intent: "passkey-options", password: PASSWORD });
    expect(proven.status).toBe(200);
    const challenge = (proven.body.options as { challenge: string }).challenge;
    const key = newSoftPasskey(user.id);
    const added = await securityPost(me, { intent: "passkey-add", name: "Phone", credential: JSON.stringify(registrationResponse(key, challenge, relyingParty())) });
    expect(added.status).toBe(200);
    const [mail] = await db().select().from(emailOutbox).where(and(eq(emailOutbox.toAddress, user.email), eq(emailOutbox.template, "passkey-added")));
    expect(mail!.textBody).toContain("“Phone”");
    expect(mail!.textBody).toMatch(/If you did not/);

    // Two-factor on: a current code is proof too, once (the same code again is refused).
    const enrolment = await startEnrolment({ ...me }, db());
    const step = currentStep();
    expect((await confirmEnrolment(totpAt(enrolment.secret, step), { actor: { ...me }, request: {} }, db(), "applicant")).ok).toBe(true);
    const code = totpAt(enrolment.secret, step + 1);
    expect((await securityPost(me, { intent: "passkey-options", code })).status).toBe(200);
    const replay = await securityPost(me, { intent: "passkey-options", code });
    expect(replay.status).toBe(400);
    expect(replay.body.fieldErrors?.code?.[0]).toMatch(/not valid/);
  });

  it("Change Password offers to remove the passkeys: kept unless asked, removed (audited) when asked", async () => {
    const user = await applicant();
    await withPasskey(user);
    const settingsPost = (fields: Record<string, string>) =>
      accountSettingsAction(
        new Request("http://localhost/account/settings", { method: "POST", body: new URLSearchParams(fields), headers: { "Content-Type": "application/x-www-form-urlencoded" } }),
        { actor: { ...user, isStaff: false, mfaVerified: false, sessionId: `session-${user.id}` }, request: {} },
        db(),
      );
    const kept = await settingsPost({ intent: "change-password", currentPassword: PASSWORD, newPassword: "N3w!Passphrase", confirmPassword: "N3w!Passphrase" });
    expect(kept.status).toBe(200);
    expect(await passkeysOf(user.id)).toHaveLength(1);
    expect((await settingsPost({ intent: "change-password", currentPassword: "N3w!Passphrase", newPassword: "Th1rd!Passphrase", confirmPassword: "Th1rd!Passphrase", removePasskeys: "yes" })).status).toBe(400);
    const removed = await settingsPost({ intent: "change-password", currentPassword: "N3w!Passphrase", newPassword: "Th1rd!Passphrase", confirmPassword: "Th1rd!Passphrase", removePasskeys: "on" });
    expect(removed.status).toBe(200);
    expect(removed.body.toast.description).toMatch(/Your passkey was removed/);
    expect(await passkeysOf(user.id)).toHaveLength(0);
    const audits = await db().select({ details: auditLog.details }).from(auditLog).where(and(eq(auditLog.actorId, user.id), eq(auditLog.action, "passkey.remove")));
    expect(audits.map((a) => a.details)).toEqual([expect.objectContaining({ name: "Test key", reason: "password-change" })]);
  });

  it("a staff Reset Two-Factor also removes the person's passkeys (and any registration under way)", async () => {
    const admin = await ensureAdmin(database(), { email: `reset-admin-${target}-${++n}@example.com`, password: PASSWORD });
    const staffEmail = `reset-staff-${target}-${++n}@example.com`;
    const staff = await ensureAdmin(database(), { email: staffEmail, password: PASSWORD });
    const person = { id: staff.userId, name: "Admin", email: staffEmail };
    const key = await withPasskey(person);
    await registrationOptions(db(), person);

    const { passkeysRemoved } = await resetStaffMfa(staff.userId, { actor: { id: admin.userId, name: "Admin", email: "a@example.com" }, request: {} }, db());
    expect(passkeysRemoved).toBe(1);
    expect(await passkeysOf(staff.userId)).toHaveLength(0);
    expect(await db().select().from(webauthnChallenges).where(and(eq(webauthnChallenges.userId, staff.userId), eq(webauthnChallenges.purpose, "register")))).toHaveLength(0);
    // The removed passkey no longer signs in.
    expect((await passkeyAction(await signInForm(key, { uv: true }), null, meta, db())).status).toBe(400);
  });
});
