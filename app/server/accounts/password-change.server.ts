import { and, eq, ne, sql } from "drizzle-orm";
import { ACCOUNT_SETTINGS_MESSAGES, type AccountSettingsInput } from "~/domain/validation/account-settings";
import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";
import { hashPassword } from "~/server/accounts/password-hash.server";
import { revokeRecoveryLinks } from "~/server/accounts/recovery-links.server";
import { removeAllPasskeys } from "~/server/accounts/webauthn.server";
import { getConfig } from "~/server/platform/config.server";
import type { Db } from "~/server/platform/db/client.server";
import { account, session } from "~/server/platform/db/schema.server";
import { enqueueEmail } from "~/server/platform/mail/outbox.server";
import { passwordChangedEmail } from "~/server/platform/mail/templates.server";
import { breachedPasswordMessage, checkBreachedPassword } from "~/server/platform/security/breached-password.server";
import { checkCurrentPassword, type SettingsActor } from "./settings-refused.server";
import { AppError } from "~/server/platform/http/app-error.server";

/**
 * Change Password, for applicants and staff. The same strength schema (the form's) and the
 * same breached-password check as sign-up and reset; hashed with argon2id as Better Auth is configured
 * (password-hash.server.ts). Written here rather than through Better Auth's changePassword: that one
 * re-creates the current session, which would drop a staff member's verified second factor
 * (session_mfa is keyed by session) and rotate the cookie under an open page. Here, in one transaction:
 * the hash changes only if it is still the one the current password matched (two changes at once: one
 * wins, the other is told), every OTHER session ends, every reset link and e-mail code issued before is
 * revoked (recovery-links.server.ts), the account's passkeys go too when the owner ticked "Also remove
 * my passkeys" (the form lists them: a new password does not touch them), the change is audited and the
 * owner is e-mailed.
 */
export async function changePassword(db: Db, input: AccountSettingsInput<"change-password">, { actor, request: info }: Caller<SettingsActor>): Promise<{ sessionsEnded: number; passkeysRemoved: number }> {
  const matched = await checkCurrentPassword(db, actor, input.currentPassword);
  const breached = await checkBreachedPassword(input.newPassword);
  if (breached.status === "breached") throw new AppError("account_settings", 400, breachedPasswordMessage(breached.count), { field: "newPassword" });
  const newHash = await hashPassword(input.newPassword);
  return db.transaction(async (tx) => {
    const updated = await tx
      .update(account)
      .set({ password: newHash, updatedAt: sql`now()` })
      .where(and(eq(account.userId, actor.id), eq(account.providerId, "credential"), eq(account.password, matched)))
      .returning({ id: account.id });
    if (updated.length === 0) throw new AppError("account_settings", 409, ACCOUNT_SETTINGS_MESSAGES.passwordChangedMeanwhile, { field: "currentPassword" });
    const ended = await tx
      .delete(session)
      .where(and(eq(session.userId, actor.id), ne(session.id, actor.sessionId)))
      .returning({ id: session.id });
    const revoked = await revokeRecoveryLinks(tx, actor.id);
    const passkeysRemoved = input.removePasskeys ? (await removeAllPasskeys(tx, actor.id, "password-change", { actor, request: info })).length : 0;
    await writeAudit(tx, {
      actor,
      action: "account.password_change",
      table: "account",
      recordId: actor.id,
      details: { otherSessionsEnded: ended.length, resetLinksRevoked: revoked.resetLinks, emailCodesRevoked: revoked.emailCodes, passkeysRemoved },
      request: info,
    });
    await enqueueEmail(tx, { to: actor.email, ...passwordChangedEmail({ name: actor.name, baseUrl: getConfig().publicUrl, changedAt: new Date() }) });
    return { sessionsEnded: ended.length, passkeysRemoved };
  });
}
