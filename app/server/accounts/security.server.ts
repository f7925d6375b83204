import { and, desc, eq, isNotNull } from "drizzle-orm";
import { redirect } from "react-router";
import { errorToast } from "~/domain/action-result";
import {
  backupCodesSchema,
  passkeyAddSchema,
  passkeyOptionsSchema,
  passkeyRemoveSchema,
  SECURITY_MESSAGES,
  SECURITY_TOASTS,
  totpDisableSchema,
  totpEnableSchema,
  totpStartSchema,
  type AccountSecurityActionData,
  type AccountSecurityIntent,
} from "~/domain/validation/account-security";
import { ACCOUNT_SECURITY_INTENTS } from "~/domain/validation/account-security";
import type { AccountSecurityView } from "~/domain/views/account";
import type { Caller } from "~/server/platform/audit/audit.server";
import { checkCurrentCode, confirmEnrolment, disableFactor, getMfaState, pendingEnrolment, regenerateBackupCodes, startEnrolment } from "~/server/accounts/mfa.server";
import { matchingPasswordHash } from "~/server/accounts/current-password.server";
import type { SessionUser } from "~/server/accounts/session.server";
import { registerPasskey, registrationOptions, removePasskey } from "~/server/accounts/webauthn.server";
import { getDb, type Db, type DbOrTx } from "~/server/platform/db/client.server";
import { adminMfa, passkeys } from "~/server/platform/db/schema.server";
import { staffRoleOf } from "~/server/staff/index.server";
import type { ServiceAnswer } from "~/server/platform/http/action-answer.server";
import { readAccountForm } from "./account-form.server";
import { logFailure } from "~/server/platform/log/describe-error.server";
import { checkThrottles, hit, THROTTLES, tooManyAttemptsMessage } from "~/server/platform/security/throttle.server";
import { CURRENT_PASSWORD_THROTTLE } from "./settings-refused.server";
import { AppError, actionRefusal } from "~/server/platform/http/app-error.server";

/** The account page's security section: whether TOTP is on, and the passkeys (never their keys). */
export async function loadAccountSecurity(userId: string, db: DbOrTx = getDb()): Promise<AccountSecurityView> {
  const [totp] = await db.select({ userId: adminMfa.userId }).from(adminMfa).where(and(eq(adminMfa.userId, userId), isNotNull(adminMfa.enabledAt))).limit(1);
  const role = await staffRoleOf(userId, db);
  const keys = await db
    .select({ id: passkeys.id, name: passkeys.name, createdAt: passkeys.createdAt, lastUsedAt: passkeys.lastUsedAt })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(desc(passkeys.createdAt));
  return {
    staff: Boolean(role),
    totpEnabled: Boolean(totp),
    passkeys: keys.map((k) => ({ id: k.id, name: k.name, createdAt: k.createdAt.toISOString(), lastUsedAt: k.lastUsedAt?.toISOString() ?? null })),
  };
}

/** A credential (a few KB as JSON), a name and an intent fit well within this. */
export const ACCOUNT_SECURITY_MAX_BYTES = 24 * 1024;
/** Wrong passwords when turning the factor off: 5 per 15 minutes per account. */
const DISABLE_PASSWORD_THROTTLE = { limit: 5, windowSeconds: 900 } as const;

export type AccountSecurityAnswer = ServiceAnswer<AccountSecurityActionData>;

const FAILED: Record<AccountSecurityIntent, string> = {
  "totp-start": "Could not start two-factor set-up",
  "totp-enable": "Could not turn on two-factor authentication",
  "totp-disable": "Could not turn off two-factor authentication",
  "backup-codes": "Could not make new backup codes",
  "passkey-options": "Could not start adding a passkey",
  "passkey-add": "Could not add the passkey",
  "passkey-remove": "Could not remove the passkey",
};

function refusal(status: number, intent: AccountSecurityIntent | null, message: string, field?: string): AccountSecurityAnswer {
  const body: AccountSecurityActionData = { ok: false, intent, toast: errorToast(intent ? FAILED[intent] : "Could not complete the request", message), at: Date.now() };
  if (field) body.fieldErrors = { [field]: [message] };
  return { status, body };
}
const done = (intent: AccountSecurityIntent, extra: Partial<AccountSecurityActionData>, toast: AccountSecurityActionData["toast"]): AccountSecurityAnswer => ({
  status: 200,
  body: { ok: true, intent, toast, at: Date.now(), ...extra },
});

function firstIssue(error: { issues: { path: PropertyKey[]; message: string }[] }): { field: string; message: string } {
  const issue = error.issues[0];
  return { field: String(issue?.path[0] ?? "form"), message: issue?.message ?? SECURITY_MESSAGES.intent };
}

/**
 * Add Passkey's fresh proof: a current TOTP code (two-factor on; the step is used up, a miss counts
 * toward its lock), or the password (the tries share the 5-per-15-minutes budget of every other
 * "your password again" form). Answers the refusal, or null when proven.
 */
async function freshProofProblem(user: SessionUser, proof: { password?: string; code?: string }, db: Db): Promise<{ status: number; message: string; field?: string } | null> {
  if (proof.code) {
    if ((await getMfaState(user.id, db)) !== "enabled") return { status: 400, message: SECURITY_MESSAGES.passkeyCodeWithoutTotp, field: "code" };
    const checked = await checkCurrentCode(user, proof.code, db);
    return checked.ok ? null : { status: 400, message: checked.message, field: "code" };
  }
  const tries = await hit(`account-password-check:${user.id}`, CURRENT_PASSWORD_THROTTLE, { db });
  if (!tries.allowed) return { status: 429, message: tooManyAttemptsMessage(tries.retryAfterSeconds) };
  if (!(await matchingPasswordHash(db, user.id, proof.password ?? ""))) return { status: 400, message: SECURITY_MESSAGES.wrongPassword, field: "password" };
  return null;
}

const isIntent = (value: unknown): value is AccountSecurityIntent => (ACCOUNT_SECURITY_INTENTS as readonly unknown[]).includes(value);
const TOTP_INTENTS: readonly AccountSecurityIntent[] = ["totp-start", "totp-enable", "totp-disable", "backup-codes"];

/**
 * POST /account/security (the route checked the origin and the signed-in user). Applicants: every
 * intent. Staff: passkeys only, and only past their second factor (their authenticator is mandatory
 * and lives at /admin/mfa; a password-only session must not be able to add a passkey that would then
 * stand in for the second factor).
 */
export async function accountSecurityAction(request: Request, caller: Caller<SessionUser>, db: Db = getDb()): Promise<AccountSecurityAnswer> {
  const { actor: user } = caller;
  const read = await readAccountForm(request, ACCOUNT_SECURITY_MAX_BYTES, (message): AccountSecurityActionData => refusal(400, null, message).body);
  if (!read.ok) return read.answer;
  const { form, intent: intentValue } = read;
  if (!isIntent(intentValue)) return refusal(400, null, SECURITY_MESSAGES.intent);
  const intent = intentValue;
  if (user.isStaff) {
    if (!user.mfaVerified) throw redirect(`/admin/mfa?redirectTo=${encodeURIComponent("/account")}`);
    if (TOTP_INTENTS.includes(intent)) return refusal(403, intent, SECURITY_MESSAGES.staffTotp);
  }
  const limited = await checkThrottles([[`account-security:${user.id}`, THROTTLES.accountSecurityPerUser]]);
  if (!limited.ok) return refusal(429, intent, limited.message);
  const field = (name: string) => form.get(name) ?? undefined;
  try {
    switch (intent) {
      case "totp-start": {
        totpStartSchema.parse({ intent });
        if ((await getMfaState(user.id, db)) === "enabled") return refusal(409, intent, "Two-factor authentication is already on.");
        const enrolment = (await pendingEnrolment(user, db)) ?? (await startEnrolment(user, db));
        return done(intent, { enrolment: { secret: enrolment.secret, qrDataUrl: enrolment.qrDataUrl } }, { type: "info", title: "Scan the QR code" });
      }
      case "totp-enable": {
        const parsed = totpEnableSchema.safeParse({ intent, code: field("code") });
        if (!parsed.success) return refusal(400, intent, firstIssue(parsed.error).message, "code");
        const result = await confirmEnrolment(parsed.data.code, caller, db, "applicant");
        if (!result.ok) return refusal(400, intent, result.message, "code");
        return done(intent, { backupCodes: result.backupCodes }, SECURITY_TOASTS.totpOn);
      }
      case "backup-codes": {
        const parsed = backupCodesSchema.safeParse({ intent, code: field("code") });
        if (!parsed.success) return refusal(400, intent, firstIssue(parsed.error).message, "code");
        const result = await regenerateBackupCodes(parsed.data.code, caller, db);
        if (!result.ok) return refusal(400, intent, result.message, "code");
        return done(intent, { backupCodes: result.backupCodes }, SECURITY_TOASTS.backupCodes);
      }
      case "totp-disable": {
        const parsed = totpDisableSchema.safeParse({ intent, code: field("code") || undefined, password: field("password") || undefined });
        if (!parsed.success) {
          const issue = firstIssue(parsed.error);
          return refusal(400, intent, issue.message, issue.field);
        }
        if (parsed.data.code) {
          const result = await disableFactor({ code: parsed.data.code }, caller, db);
          return result.ok ? done(intent, {}, SECURITY_TOASTS.totpOff) : refusal(400, intent, result.message, "code");
        }
        const tries = await hit(`mfa-disable-password:${user.id}`, DISABLE_PASSWORD_THROTTLE, { db });
        if (!tries.allowed) return refusal(429, intent, `Too many attempts. Please wait ${Math.ceil(tries.retryAfterSeconds / 60)} minutes and try again.`);
        if (!(await matchingPasswordHash(db, user.id, parsed.data.password!))) {
          return refusal(400, intent, SECURITY_MESSAGES.wrongPassword, "password");
        }
        const result = await disableFactor({ passwordVerified: true }, caller, db);
        return result.ok ? done(intent, {}, SECURITY_TOASTS.totpOff) : refusal(409, intent, result.message);
      }
      case "passkey-options": {
        const parsed = passkeyOptionsSchema.safeParse({ intent, password: field("password") || undefined, code: field("code") || undefined });
        if (!parsed.success) {
          const issue = firstIssue(parsed.error);
          return refusal(400, intent, issue.message, issue.field);
        }
        const unproven = await freshProofProblem(user, parsed.data, db);
        if (unproven) return refusal(unproven.status, intent, unproven.message, unproven.field);
        return done(intent, { options: await registrationOptions(db, user) }, { type: "info", title: "Follow your browser's prompt" });
      }
      case "passkey-add": {
        const parsed = passkeyAddSchema.safeParse({ intent, name: field("name"), credential: field("credential") });
        if (!parsed.success) {
          const issue = firstIssue(parsed.error);
          return refusal(400, intent, issue.message, issue.field === "name" ? "name" : undefined);
        }
        await registerPasskey(db, parsed.data.name, parsed.data.credential, caller);
        return done(intent, {}, SECURITY_TOASTS.passkeyAdded);
      }
      case "passkey-remove": {
        const parsed = passkeyRemoveSchema.safeParse({ intent, passkeyId: field("passkeyId") });
        // An id that is not one names nothing: the same 404 as another person's passkey.
        if (!parsed.success) return refusal(404, intent, SECURITY_MESSAGES.passkeyNotFound);
        await removePasskey(db, parsed.data.passkeyId, caller);
        return done(intent, {}, SECURITY_TOASTS.passkeyRemoved);
      }
    }
  } catch (error) {
    if (error instanceof AppError) return actionRefusal(error, { title: intent ? FAILED[intent] : "Could not complete the request", stamped: true }, { intent });
    if (error instanceof Error && error.message === "The second factor is already set up.") return refusal(409, intent, "Two-factor authentication is already on.");
    logFailure("account", `${intent} failed`, error);
    return refusal(503, intent, SECURITY_MESSAGES.failed);
  }
}
