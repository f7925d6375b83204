import { and, desc, eq, gt, isNull, ne, sql } from "drizzle-orm";
import { createHmac, timingSafeEqual } from "node:crypto";
import { ACCOUNT_SETTINGS_MESSAGES, type AccountSettingsInput } from "~/domain/validation/account-settings";
import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";
import { revokeRecoveryLinks } from "~/server/accounts/recovery-links.server";
import { CODE_TTL_MS, generateCode, MAX_WRONG_TRIES } from "~/server/accounts/verification-code.server";
import { getConfig } from "~/server/platform/config.server";
import type { Db, DbOrTx } from "~/server/platform/db/client.server";
import { emailVerificationCodes, profiles, user as userTable } from "~/server/platform/db/schema.server";
import { emailChangeCodeEmail, emailChangedEmail } from "~/server/accounts/account-settings-emails.server";
import { enqueueEmail } from "~/server/platform/mail/outbox.server";
import { checkThrottles, THROTTLES } from "~/server/platform/security/throttle.server";
import { checkCurrentPassword, isUniqueViolation, type SettingsActor } from "./settings-refused.server";
import { AppError } from "~/server/platform/http/app-error.server";

/**
 * Change Email. Request: the current password, then a 6-digit code to the NEW address
 * (email_verification_codes, purpose 'change-email', bound to the account by user_id and by the HMAC),
 * sent whether or not another account holds that address: the request reveals nothing. Confirm: the
 * code, checked and consumed under a row lock; then one conditional UPDATE moves user.email (still the
 * old address, and nobody else's) and profiles.email follows, in the same transaction as the audit row,
 * the revocation of every reset link and e-mail code issued before (they went to the old inbox, which
 * no longer proves the account) and the notice to the OLD address. The notice does not name the new
 * address: whoever reads the old inbox (perhaps not the owner) learns nothing to aim at. "Already used by another account" is said only to someone who
 * proved they read that inbox, so it tells nothing sign-up does not already tell.
 */

function hashChangeCode(userId: string, email: string, code: string): string {
  return createHmac("sha256", getConfig().appSecret).update(`change-email:${userId}:${email}:${code}`).digest("hex");
}

const pending = (userId: string) =>
  and(
    eq(emailVerificationCodes.userId, userId),
    eq(emailVerificationCodes.purpose, "change-email"),
    isNull(emailVerificationCodes.consumedAt),
    eq(emailVerificationCodes.verified, false),
  );

/** The change waiting for its code (the newest live one), for the page. */
export async function loadPendingEmailChange(db: DbOrTx, userId: string): Promise<{ newEmail: string; expiresAt: string } | null> {
  const [row] = await db
    .select({ email: emailVerificationCodes.email, expiresAt: emailVerificationCodes.expiresAt, attempts: emailVerificationCodes.attempts })
    .from(emailVerificationCodes)
    .where(and(pending(userId), gt(emailVerificationCodes.expiresAt, sql`now()`)))
    .orderBy(desc(emailVerificationCodes.createdAt))
    .limit(1);
  if (!row || row.attempts >= MAX_WRONG_TRIES) return null;
  return { newEmail: row.email, expiresAt: row.expiresAt.toISOString() };
}

export async function requestEmailChange(db: Db, input: AccountSettingsInput<"request-email-change">, { actor, request: info }: Caller<SettingsActor>): Promise<void> {
  if (input.newEmail === actor.email.toLowerCase()) throw new AppError("account_settings", 400, ACCOUNT_SETTINGS_MESSAGES.sameEmail, { field: "newEmail" });
  // The inbox's limit is the one sign-up codes count against (3 per 10 minutes per address), so the two
  // ways of mailing a code cannot together flood an address; the account's own limit stops one account
  // from mailing code after code to ever-new addresses.
  const limited = await checkThrottles(
    [
      [{ email: input.newEmail, scope: "code-send" }, THROTTLES.codeSendPerEmail],
      [`email-change-send:${actor.id}`, THROTTLES.codeSendPerEmail],
    ],
    { db },
  );
  if (!limited.ok) throw new AppError("account_settings", 429, limited.message, { retryAfterSeconds: limited.retryAfterSeconds });
  await checkCurrentPassword(db, actor, input.currentPassword);
  const code = generateCode();
  await db.transaction(async (tx) => {
    // One change at a time: an earlier code stops working when a new one is asked for.
    await tx.delete(emailVerificationCodes).where(pending(actor.id));
    await tx.insert(emailVerificationCodes).values({
      email: input.newEmail,
      userId: actor.id,
      purpose: "change-email",
      codeHash: hashChangeCode(actor.id, input.newEmail, code),
      expiresAt: new Date(Date.now() + CODE_TTL_MS),
    });
    await enqueueEmail(tx, { to: input.newEmail, ...emailChangeCodeEmail({ code }) });
    await writeAudit(tx, { actor, action: "account.email_change", table: "email_verification_codes", recordId: actor.id, details: { step: "code-sent", to: input.newEmail }, request: info });
  });
}

type CodeCheck = { ok: true; newEmail: string } | { ok: false };

export async function confirmEmailChange(db: Db, input: AccountSettingsInput<"confirm-email-change">, { actor, request: info }: Caller<SettingsActor>): Promise<{ newEmail: string }> {
  // Like sign-up's code checks: a ceiling per account on top of the 5 wrong tries per code.
  const limited = await checkThrottles([[`email-change-check:${actor.id}`, THROTTLES.codeCheckPerIp]], { db });
  if (!limited.ok) throw new AppError("account_settings", 429, limited.message, { retryAfterSeconds: limited.retryAfterSeconds });
  const oldEmail = actor.email.toLowerCase();
  try {
    return await db.transaction(async (tx) => {
      const check = await consumeCode(tx, actor.id, input.code);
      if (!check.ok) return { refused: new AppError("account_settings", 400, ACCOUNT_SETTINGS_MESSAGES.invalidCode, { field: "code" }) } as const;
      const newEmail = check.newEmail;
      const moved = await tx
        .update(userTable)
        .set({ email: newEmail, emailVerified: true, updatedAt: sql`now()` })
        .where(
          and(
            eq(userTable.id, actor.id),
            eq(sql`lower(${userTable.email})`, oldEmail),
            sql`not exists (select 1 from "user" other where lower(other.email) = ${newEmail} and other.id <> ${actor.id})`,
          ),
        )
        .returning({ id: userTable.id });
      if (moved.length === 0) {
        const [taken] = await tx
          .select({ id: userTable.id })
          .from(userTable)
          .where(and(eq(sql`lower(${userTable.email})`, newEmail), ne(userTable.id, actor.id)))
          .limit(1);
        // Thrown: the transaction rolls back, so the code is not used up by a change that did not happen.
        throw taken
          ? new AppError("account_settings", 409, ACCOUNT_SETTINGS_MESSAGES.emailTaken, { field: "code" })
          : new AppError("account_settings", 409, ACCOUNT_SETTINGS_MESSAGES.emailChangedMeanwhile, { field: "code" });
      }
      await tx.update(profiles).set({ email: newEmail, updatedAt: sql`now()` }).where(eq(profiles.id, actor.id));
      const revoked = await revokeRecoveryLinks(tx, actor.id);
      await writeAudit(tx, {
        actor,
        action: "account.email_change",
        table: "user",
        recordId: actor.id,
        details: { step: "changed", from: oldEmail, to: newEmail, resetLinksRevoked: revoked.resetLinks, emailCodesRevoked: revoked.emailCodes },
        request: info,
      });
      await enqueueEmail(tx, { to: oldEmail, ...emailChangedEmail({ name: actor.name, changedAt: new Date(), baseUrl: getConfig().publicUrl }) });
      return { newEmail };
    }).then((result) => {
      // A wrong code is answered after its commit, so the wrong try stays counted.
      if ("refused" in result) throw result.refused;
      return result;
    });
  } catch (error) {
    // Two accounts confirming the same new address at once: the unique index lets one through.
    if (isUniqueViolation(error)) throw new AppError("account_settings", 409, ACCOUNT_SETTINGS_MESSAGES.emailTaken, { field: "code" });
    throw error;
  }
}

/**
 * The newest live change-email code of the account, locked (two confirms at once: the second waits,
 * then finds it used). A match is marked verified and consumed; a miss counts a wrong try.
 */
async function consumeCode(tx: DbOrTx, userId: string, code: string): Promise<CodeCheck> {
  const [row] = await tx
    .select()
    .from(emailVerificationCodes)
    .where(and(pending(userId), gt(emailVerificationCodes.expiresAt, sql`now()`)))
    .orderBy(desc(emailVerificationCodes.createdAt))
    .limit(1)
    .for("update");
  if (!row || row.attempts >= MAX_WRONG_TRIES) return { ok: false };
  const expected = Buffer.from(row.codeHash, "hex");
  const given = Buffer.from(hashChangeCode(userId, row.email, code), "hex");
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    await tx.update(emailVerificationCodes).set({ attempts: sql`${emailVerificationCodes.attempts} + 1` }).where(eq(emailVerificationCodes.id, row.id));
    return { ok: false };
  }
  await tx.update(emailVerificationCodes).set({ verified: true, verifiedAt: sql`now()`, consumedAt: sql`now()` }).where(eq(emailVerificationCodes.id, row.id));
  return { ok: true, newEmail: row.email };
}
