import { and, desc, eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { accountSettingsAction } from "~/server/accounts/settings.server";
import { getAuth } from "~/server/accounts/auth.server";
import { resetPassword } from "~/server/accounts/flows.server";
import { auditLog, emailOutbox, emailVerificationCodes, verification } from "~/server/platform/db/schema.server";
import { setUpTestConfig } from "../helpers/temp-config";
import { testTargets, useTestDatabase } from "../helpers/test-db";

/**
 * What recovery leaves behind (the hardening review: "a reset link that outlives an e-mail change").
 * A reset link mailed to the old inbox, or an e-mail code issued before, must stop working once the
 * e-mail changes, the password changes, or a reset completes; the notice to the old address must not
 * name the new one.
 */

const PASSWORD = "Str0ng!Passw0rd";
const NEW_PASSWORD = "N3w!Passphrase";
setUpTestConfig("recovery-revocation", { APP_SECRET: "r".repeat(48), PUBLIC_URL: "https://loans.example.com", PWNED_PASSWORDS_URL: "off" });

describe.each(testTargets)("recovery revocation on %s", (target) => {
  const database = useTestDatabase({ target, global: true });
  const db = () => database().db;
  let n = 0;
  const meta = { ip: "203.0.113.40", headers: new Headers() };

  async function person() {
    n += 1;
    const email = `recover${n}.${target}@example.com`;
    const created = await getAuth().api.signUpEmail({ body: { name: "Rae Recover", email, password: PASSWORD } });
    return { id: created.user.id, name: "Rae Recover", email, isStaff: false, mfaVerified: false, sessionId: `no-session-${n}` };
  }
  type Person = Awaited<ReturnType<typeof person>>;

  const post = (who: Person, fields: Record<string, string>) =>
    accountSettingsAction(
      new Request("https://loans.example.com/account/settings", { method: "POST", body: new URLSearchParams(fields), headers: { "Content-Type": "application/x-www-form-urlencoded" } }),
      { actor: who, request: { ip: meta.ip, userAgent: "vitest" } },
      db(),
    );
  const mails = (to: string, template: string) =>
    db().select().from(emailOutbox).where(and(eq(emailOutbox.toAddress, to), eq(emailOutbox.template, template))).orderBy(desc(emailOutbox.createdAt));

  /** A reset link as the inbox receives it: the token from the newest reset e-mail to `email`. */
  async function resetLink(email: string): Promise<string> {
    await getAuth().api.requestPasswordReset({ body: { email, redirectTo: "/auth" } });
    const [mail] = await mails(email, "password-reset");
    return decodeURIComponent(/token=([^\s&"]+)/.exec(mail!.textBody)![1]!);
  }
  const spendLink = (token: string, password = "T4ken!Takeover") => resetPassword({ token, password }, meta);
  const linksOf = (who: Person) => db().select().from(verification).where(and(like(verification.identifier, "reset-password:%"), eq(verification.value, who.id)));

  async function startEmailChange(who: Person, newEmail: string): Promise<string> {
    expect((await post(who, { intent: "request-email-change", newEmail, currentPassword: PASSWORD })).status).toBe(200);
    const [mail] = await mails(newEmail, "email-change-code");
    return /\b(\d{6})\b/.exec(mail!.textBody)![1]!;
  }

  it("changing the e-mail revokes the reset link sent to the old inbox; the old address is told without the new one, and how to get help", async () => {
    const me = await person();
    const oldInboxLink = await resetLink(me.email);
    const newEmail = `moved${n}.${target}@example.com`;
    const code = await startEmailChange(me, newEmail);
    expect((await post(me, { intent: "confirm-email-change", code })).status).toBe(200);

    const takeover = await spendLink(oldInboxLink);
    expect(takeover).toMatchObject({ ok: false, toast: { title: "Password Update Failed" } });
    expect(await linksOf(me)).toHaveLength(0);
    // The owner's password still works; the attacker's does not.
    await expect(getAuth().api.signInEmail({ body: { email: newEmail, password: "T4ken!Takeover" } })).rejects.toThrow();
    expect((await getAuth().api.signInEmail({ body: { email: newEmail, password: PASSWORD } })).user.id).toBe(me.id);

    const [notice] = await mails(me.email, "email-changed");
    for (const body of [notice!.textBody, notice!.htmlBody ?? "", notice!.subject]) expect(body.toLowerCase()).not.toContain(newEmail);
    expect(notice!.textBody).toMatch(/no longer works/);
    expect(notice!.textBody).toMatch(/call us at once at/);
    const audits = await db().select().from(auditLog).where(and(eq(auditLog.actorId, me.id), eq(auditLog.action, "account.email_change")));
    expect(audits.map((a) => a.details).find((d) => d.step === "changed")).toMatchObject({ resetLinksRevoked: 1 });
  });

  it("changing the password revokes every reset link and a pending e-mail change's code", async () => {
    const me = await person();
    const first = await resetLink(me.email);
    const second = await resetLink(me.email);
    const code = await startEmailChange(me, `elsewhere${n}.${target}@example.com`);
    expect((await post(me, { intent: "change-password", currentPassword: PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD })).status).toBe(200);

    for (const link of [first, second]) expect(await spendLink(link)).toMatchObject({ ok: false, toast: { title: "Password Update Failed" } });
    const confirm = await post({ ...me }, { intent: "confirm-email-change", code });
    expect(confirm.status).toBe(400);
    expect(await db().select().from(emailVerificationCodes).where(eq(emailVerificationCodes.userId, me.id))).toHaveLength(0);
    expect((await getAuth().api.signInEmail({ body: { email: me.email, password: NEW_PASSWORD } })).user.id).toBe(me.id);
  });

  it("a completed reset revokes the account's other reset links and e-mail codes", async () => {
    const me = await person();
    const older = await resetLink(me.email);
    await startEmailChange(me, `pending${n}.${target}@example.com`);
    const used = await resetLink(me.email);
    expect(await spendLink(used, NEW_PASSWORD)).toMatchObject({ ok: true });

    expect(await spendLink(older)).toMatchObject({ ok: false, toast: { title: "Password Update Failed" } });
    expect(await linksOf(me)).toHaveLength(0);
    expect(await db().select().from(emailVerificationCodes).where(eq(emailVerificationCodes.userId, me.id))).toHaveLength(0);
    expect((await getAuth().api.signInEmail({ body: { email: me.email, password: NEW_PASSWORD } })).user.id).toBe(me.id);
  });
});
