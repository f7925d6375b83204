import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { deviceLabel } from "~/domain/device-label";
import { acceptCurrentPrivacyNotice, mustSeePrivacyNotice, recordPrivacyAcceptance } from "~/server/accounts/privacy-notice.server";
import { accountSettingsAction } from "~/server/accounts/settings.server";
import { loadAccountSettings } from "~/server/accounts/settings.server";
import { verifyPassword } from "~/server/accounts/password-hash.server";
import { loadConfig, setConfig } from "~/server/platform/config.server";
import {
  account,
  auditLog,
  emailOutbox,
  emailVerificationCodes,
  notificationPreferences,
  privacyAcceptances,
  profiles,
  session,
  user as userTable,
} from "~/server/platform/db/schema.server";
import { setUpTestConfig } from "../helpers/temp-config";
import { testTargets, useTestDatabase } from "../helpers/test-db";
import { seedApplicant } from "../helpers/seed";

/**
 * Account settings (issue 23), each intent of POST /account/settings through the service the route
 * calls: profile, Change Email (code to the new address, one of two parallel confirms wins, an address
 * another account holds is refused, the old address told), Change Password (current password, the
 * strength rules, other sessions end, one of two parallel changes wins), Sign Out Other Sessions,
 * Notification Preferences; staff refused on the applicant-only ones; the privacy notice versions.
 */

const ENV = { APP_SECRET: "s".repeat(48), PUBLIC_URL: "https://loans.example.com" };
const dataDir = setUpTestConfig("account-settings", ENV);
const PASSWORD = "Str0ng!Passw0rd";
const NEW_PASSWORD = "N3w!Passphrase";

describe.each(testTargets)("account settings on %s", (target) => {
  const database = useTestDatabase({ target, global: true });
  const db = () => database().db;
  let n = 0;

  async function person({ staff = false } = {}) {
    n += 1;
    const id = `settings-${target}-${n}`;
    const email = `person${n}.${target}@example.com`;
    await seedApplicant(db(), { id, name: "Pat Person", email, profile: true, password: PASSWORD });
    const expires = new Date(Date.now() + 3600_000);
    await db().insert(session).values([
      { id: `here-${id}`, token: `t1-${id}`, userId: id, expiresAt: expires, userAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36", ipAddress: "203.0.113.1" },
      { id: `there-${id}`, token: `t2-${id}`, userId: id, expiresAt: expires, userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1", ipAddress: "198.51.100.7" },
    ]);
    return { id, name: "Pat Person", email, isStaff: staff, mfaVerified: staff, sessionId: `here-${id}` };
  }
  type Person = Awaited<ReturnType<typeof person>>;

  const post = (who: Person, fields: Record<string, string>) =>
    accountSettingsAction(
      new Request("https://loans.example.com/account/settings", { method: "POST", body: new URLSearchParams(fields), headers: { "Content-Type": "application/x-www-form-urlencoded" } }),
      { actor: who, request: { ip: "203.0.113.1", userAgent: "vitest" } },
    );
  const auditsOf = (who: Person, action: string) => db().select().from(auditLog).where(and(eq(auditLog.actorId, who.id), eq(auditLog.action, action)));
  const mailTo = (email: string) => db().select().from(emailOutbox).where(eq(emailOutbox.toAddress, email));
  const sessionsOf = (who: Person) => db().select({ id: session.id }).from(session).where(eq(session.userId, who.id));

  it("Active Sessions: opening the page marks this device seen now from the request's address; other devices keep theirs", async () => {
    const me = await person();
    const stale = new Date(Date.now() - 3 * 86_400_000);
    await db().update(session).set({ updatedAt: stale, ipAddress: null }).where(eq(session.userId, me.id));
    const before = Date.now();
    const view = await loadAccountSettings({ actor: me, request: { ip: "192.0.2.44", userAgent: "vitest" } }, db());
    const here = view.sessions.find((s) => s.current)!;
    const there = view.sessions.find((s) => !s.current)!;
    expect(here.ipAddress).toBe("192.0.2.44");
    expect(Date.parse(here.lastSeenAt)).toBeGreaterThanOrEqual(before - 5_000);
    expect(there.ipAddress).toBeNull();
    expect(there.lastSeenAt).toBe(stale.toISOString());
    // This device first: the newest use.
    expect(view.sessions[0]!.current).toBe(true);
    // No address known (a request the entry could not place): the stored one stays.
    await loadAccountSettings({ actor: me, request: {} }, db());
    expect((await loadAccountSettings({ actor: me, request: {} }, db())).sessions.find((s) => s.current)!.ipAddress).toBe("192.0.2.44");
  });

  it("update-profile: name and phone saved on the profile and Better Auth's user, audited; bad input 400; staff 403", async () => {
    const me = await person();
    const saved = await post(me, { intent: "update-profile", fullName: "  Pat Q. Person ", phone: "(302) 555-0199" });
    expect(saved.status).toBe(200);
    const [profile] = await db().select().from(profiles).where(eq(profiles.id, me.id));
    expect(profile).toMatchObject({ fullName: "Pat Q. Person", phone: "3025550199" });
    const [u] = await db().select().from(userTable).where(eq(userTable.id, me.id));
    expect(u!.name).toBe("Pat Q. Person");
    const [audit] = await auditsOf(me, "account.update");
    expect(audit!.details).toEqual({ changed: ["fullName", "phone"] });

    const bad = await post(me, { intent: "update-profile", fullName: "", phone: "555-01" });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors?.fullName).toEqual(["Please fill in all fields"]);
    expect(bad.body.fieldErrors?.phone).toEqual(["Please enter a valid 10-digit phone number"]);
    expect((await post(me, { intent: "update-profile", fullName: "Nul\u0000Byte" })).status).toBe(400);
    // An empty phone removes it.
    expect((await post(me, { intent: "update-profile", fullName: "Pat Person", phone: "" })).status).toBe(200);
    expect((await db().select().from(profiles).where(eq(profiles.id, me.id)))[0]!.phone).toBeNull();

    const staff = await person({ staff: true });
    for (const intent of ["update-profile", "request-email-change", "confirm-email-change", "update-notifications"]) {
      expect((await post(staff, { intent, fullName: "Staff Name", newEmail: "x@example.com", currentPassword: PASSWORD, code: "123456" })).status).toBe(403);
    }
    expect((await db().select().from(profiles).where(eq(profiles.id, staff.id)))[0]!.fullName).toBe("Pat Person");
    // A staff session that has not passed its second factor changes nothing that guards the account.
    expect((await post({ ...staff, mfaVerified: false }, { intent: "revoke-other-sessions", currentPassword: PASSWORD })).status).toBe(403);
    expect((await post(me, { intent: "nonsense" })).status).toBe(400);
  });

  it("Change Email: the current password first, a hashed code to the new address, a wrong code counted; two parallel confirms, one wins; the old address told", async () => {
    const me = await person();
    const newEmail = `moved${n}.${target}@example.com`;
    const wrong = await post(me, { intent: "request-email-change", newEmail, currentPassword: "Wrong!Pass1" });
    expect(wrong.status).toBe(400);
    expect(wrong.body.fieldErrors?.currentPassword).toEqual(["The password is not correct."]);
    expect(await mailTo(newEmail)).toHaveLength(0);
    expect((await post(me, { intent: "request-email-change", newEmail: me.email.toUpperCase(), currentPassword: PASSWORD })).status).toBe(400);
    expect((await post(me, { intent: "request-email-change", newEmail: "not-an-address", currentPassword: PASSWORD })).status).toBe(400);

    expect((await post(me, { intent: "request-email-change", newEmail: newEmail.toUpperCase(), currentPassword: PASSWORD })).status).toBe(200);
    const [codeRow] = await db().select().from(emailVerificationCodes).where(eq(emailVerificationCodes.userId, me.id));
    expect(codeRow).toMatchObject({ email: newEmail, purpose: "change-email" });
    const [mail] = await mailTo(newEmail);
    const code = /\b(\d{6})\b/.exec(mail!.textBody)![1]!;
    expect(codeRow!.codeHash).not.toContain(code);
    expect((await loadAccountSettings({ actor: me, request: {} }, db())).pendingEmailChange?.newEmail).toBe(newEmail);

    const miss = await post(me, { intent: "confirm-email-change", code: code === "000000" ? "111111" : "000000" });
    expect(miss.status).toBe(400);
    expect((await db().select().from(emailVerificationCodes).where(eq(emailVerificationCodes.id, codeRow!.id)))[0]!.attempts).toBe(1);

    const both = await Promise.all([post(me, { intent: "confirm-email-change", code }), post(me, { intent: "confirm-email-change", code })]);
    expect(both.map((a) => a.status).sort()).toEqual([200, 400]);
    expect((await db().select().from(userTable).where(eq(userTable.id, me.id)))[0]!.email).toBe(newEmail);
    expect((await db().select().from(profiles).where(eq(profiles.id, me.id)))[0]!.email).toBe(newEmail);
    const [notice] = (await mailTo(me.email)).filter((m) => m.template === "email-changed");
    // The old inbox is told, but never where the account went (it may be read by someone else).
    expect(notice!.textBody).not.toContain(newEmail);
    expect(notice!.textBody).not.toContain(code);
    const audits = await auditsOf(me, "account.email_change");
    expect(audits.map((a) => (a.details as { step: string }).step).sort()).toEqual(["changed", "code-sent"]);
  });

  it("Change Email refuses an address another account holds, only once the code proved the inbox; nothing changes", async () => {
    const me = await person();
    const other = await person();
    // The request says nothing about the address (the code goes out as for any address).
    expect((await post(me, { intent: "request-email-change", newEmail: other.email, currentPassword: PASSWORD })).status).toBe(200);
    const code = /\b(\d{6})\b/.exec((await mailTo(other.email)).find((m) => m.template === "email-change-code")!.textBody)![1]!;
    const taken = await post(me, { intent: "confirm-email-change", code });
    expect(taken.status).toBe(409);
    expect(taken.body.toast.description).toBe("This email address is already used by another account.");
    expect((await db().select().from(userTable).where(eq(userTable.id, me.id)))[0]!.email).toBe(me.email);
  });

  it("Change Password: wrong current password and weak passwords refused; then the new hash, other sessions ended, audited, e-mailed; two at once: one wins", async () => {
    const me = await person();
    const wrong = await post(me, { intent: "change-password", currentPassword: "Wrong!Pass1", newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(wrong.status).toBe(400);
    expect(wrong.body.fieldErrors?.currentPassword).toEqual(["The password is not correct."]);
    const weak = await post(me, { intent: "change-password", currentPassword: PASSWORD, newPassword: "weakpassword", confirmPassword: "weakpassword" });
    expect(weak.status).toBe(400);
    expect(weak.body.fieldErrors?.newPassword).toEqual(["Password must include uppercase, lowercase, number, and special character"]);
    const mismatch = await post(me, { intent: "change-password", currentPassword: PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: "Other!Pass1" });
    expect(mismatch.body.fieldErrors?.confirmPassword).toEqual(["Passwords don't match"]);
    expect(await sessionsOf(me)).toHaveLength(2);

    const both = await Promise.all([
      post(me, { intent: "change-password", currentPassword: PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }),
      post(me, { intent: "change-password", currentPassword: PASSWORD, newPassword: "Th1rd!Passphrase", confirmPassword: "Th1rd!Passphrase" }),
    ]);
    expect(both.map((a) => a.status).sort()).toEqual([200, 409]);
    const winner = both[0]!.status === 200 ? NEW_PASSWORD : "Th1rd!Passphrase";
    const [credential] = await db().select().from(account).where(eq(account.userId, me.id));
    expect(await verifyPassword({ hash: credential!.password!, password: winner })).toBe(true);
    expect(credential!.password!.startsWith("$argon2id$")).toBe(true);
    expect((await sessionsOf(me)).map((s) => s.id)).toEqual([me.sessionId]);
    expect(await auditsOf(me, "account.password_change")).toHaveLength(1);
    expect((await mailTo(me.email)).filter((m) => m.template === "password-changed")).toHaveLength(1);
  });

  it("Sign Out Other Sessions asks for the current password: missing, wrong, overlong or with control characters refused on its field with a toast, nothing ended; then the right one; the shared throttle", async () => {
    const me = await person();
    const refusals: [Record<string, string>, string][] = [
      [{}, "Enter your current password."],
      [{ currentPassword: "" }, "Enter your current password."],
      [{ currentPassword: "Wrong!Pass1" }, "The password is not correct."],
      [{ currentPassword: "x".repeat(129) }, "The password is not correct."],
      [{ currentPassword: `${PASSWORD}\u0000` }, "The password is not correct."],
    ];
    for (const [fields, message] of refusals) {
      const refused = await post(me, { intent: "revoke-other-sessions", ...fields });
      expect(refused.status, JSON.stringify(fields)).toBe(400);
      expect(refused.body.fieldErrors?.currentPassword).toEqual([message]);
      expect(refused.body.toast).toEqual({ type: "error", title: "Could not sign out other sessions", description: message });
    }
    expect((await sessionsOf(me)).map((s) => s.id).sort()).toEqual([`here-${me.id}`, `there-${me.id}`]);
    expect(await auditsOf(me, "account.sessions_revoke")).toHaveLength(0);

    const revoked = await post(me, { intent: "revoke-other-sessions", currentPassword: PASSWORD });
    expect(revoked.status).toBe(200);
    expect(revoked.body.toast.title).toBe("Signed Out Other Sessions");
    expect((await sessionsOf(me)).map((s) => s.id)).toEqual([me.sessionId]);

    // Five wrong tries: the sixth waits even when right, and so does Change Password (one throttle for both).
    const other = await person();
    for (let i = 0; i < 5; i++) await post(other, { intent: "revoke-other-sessions", currentPassword: "Wrong!Pass1" });
    const limited = await post(other, { intent: "revoke-other-sessions", currentPassword: PASSWORD });
    expect(limited.status).toBe(429);
    expect(limited.headers?.["Retry-After"]).toBeDefined();
    expect((await post(other, { intent: "change-password", currentPassword: PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD })).status).toBe(429);
    expect(await sessionsOf(other)).toHaveLength(2);
  });

  it("staff may change their password and sign out other sessions; Active Sessions lists devices in words, this one marked", async () => {
    const staff = await person({ staff: true });
    const view = await loadAccountSettings({ actor: staff, request: {} }, db());
    expect(view).toMatchObject({ isStaff: true, profile: null, notifications: null });
    expect(view.sessions.map((s) => [s.device, s.current]).sort()).toEqual([
      ["Chrome on Windows", true],
      ["Safari on iPhone", false],
    ]);
    expect(JSON.stringify(view)).not.toContain("t1-");
    const revoked = await post(staff, { intent: "revoke-other-sessions", currentPassword: PASSWORD });
    expect(revoked.status).toBe(200);
    expect((await sessionsOf(staff)).map((s) => s.id)).toEqual([staff.sessionId]);
    const [audit] = await auditsOf(staff, "account.sessions_revoke");
    expect(audit!.details).toEqual({ ended: 1 });
    expect((await post(staff, { intent: "change-password", currentPassword: PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD })).status).toBe(200);
  });

  it("Notification Preferences: defaults without a row, saved by one upsert, audited; a forged value is refused", async () => {
    const me = await person();
    expect((await loadAccountSettings({ actor: me, request: {} }, db())).notifications).toEqual({ paymentReminders: true, productNews: false });
    expect((await post(me, { intent: "update-notifications", productNews: "on" })).status).toBe(200);
    expect((await loadAccountSettings({ actor: me, request: {} }, db())).notifications).toEqual({ paymentReminders: false, productNews: true });
    expect((await post(me, { intent: "update-notifications", paymentReminders: "on" })).status).toBe(200);
    expect(await db().select().from(notificationPreferences).where(eq(notificationPreferences.userId, me.id))).toHaveLength(1);
    expect(await auditsOf(me, "account.notifications")).toHaveLength(2);
    expect((await post(me, { intent: "update-notifications", paymentReminders: "yes please" })).status).toBe(400);
  });

  it("privacy notice: no row counts as the baseline; an older acceptance sees the current notice until accepting it; staff never", async () => {
    const me = await person();
    expect(await mustSeePrivacyNotice(db(), me)).toBe(false);
    await recordPrivacyAcceptance(db(), "2020-01-01", { actor: me, request: {} });
    expect(await mustSeePrivacyNotice(db(), me)).toBe(true);
    // A newer notice published (the setting the browser tests use): everyone before it sees it once.
    const fresh = await person();
    setConfig(loadConfig({ DATA_DIR: dataDir, PWNED_PASSWORDS_URL: "off", ...ENV, PRIVACY_NOTICE_VERSION: "2099-01-01" }));
    try {
      expect(await mustSeePrivacyNotice(db(), fresh)).toBe(true);
      await Promise.all([acceptCurrentPrivacyNotice(db(), { actor: fresh, request: { ip: "203.0.113.1" } }), acceptCurrentPrivacyNotice(db(), { actor: fresh, request: { ip: "203.0.113.1" } })]);
      expect(await mustSeePrivacyNotice(db(), fresh)).toBe(false);
      const rows = await db().select().from(privacyAcceptances).where(eq(privacyAcceptances.userId, fresh.id));
      expect(rows).toMatchObject([{ noticeVersion: "2099-01-01", ipAddress: "203.0.113.1" }]);
      expect(await auditsOf(fresh, "privacy.accept")).toHaveLength(1);
      expect(await mustSeePrivacyNotice(db(), { ...fresh, id: "someone-staff", isStaff: true })).toBe(false);
    } finally {
      setConfig(loadConfig({ DATA_DIR: dataDir, PWNED_PASSWORDS_URL: "off", ...ENV }));
    }
  });
});

describe("device labels", () => {
  it("names browser and system in plain words", () => {
    expect(deviceLabel("Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15")).toBe("Safari on macOS");
    expect(deviceLabel("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36 Edg/130.0")).toBe("Edge on Windows");
    expect(deviceLabel("Mozilla/5.0 (Linux; Android 14) Gecko/20100101 Firefox/125.0")).toBe("Firefox on Android");
    expect(deviceLabel(null)).toBe("Unknown device");
    expect(deviceLabel("curl/8.0")).toBe("Unknown device");
  });
});
