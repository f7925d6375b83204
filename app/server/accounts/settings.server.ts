import { eq } from "drizzle-orm";
import { errorToast, type Toast } from "~/domain/action-result";
import { issuesToFieldErrors } from "~/domain/validation/field-errors";
import {
  ACCOUNT_SETTINGS_FAILED,
  ACCOUNT_SETTINGS_INTENTS,
  ACCOUNT_SETTINGS_MESSAGES,
  ACCOUNT_SETTINGS_SCHEMAS,
  ACCOUNT_SETTINGS_TOASTS,
  APPLICANT_ONLY_INTENTS,
  type AccountSettingsActionData,
  type AccountSettingsInput,
  type AccountSettingsIntent,
} from "~/domain/validation/account-settings";
import type { AccountSettingsView } from "~/domain/views/account";
import type { Caller } from "~/server/platform/audit/audit.server";
import { getDb, type Db } from "~/server/platform/db/client.server";
import { profiles } from "~/server/platform/db/schema.server";
import type { ServiceAnswer } from "~/server/platform/http/action-answer.server";
import { readAccountForm } from "./account-form.server";
import { logFailure } from "~/server/platform/log/describe-error.server";
import { confirmEmailChange, loadPendingEmailChange, requestEmailChange } from "./email-change.server";
import { loadNotificationPreferences, updateNotificationPreferences } from "./notifications.server";
import { changePassword } from "./password-change.server";
import { updateProfile } from "./profile.server";
import { listSessions, revokeOtherSessions, touchSession } from "./sessions.server";
import { type SettingsActor } from "./settings-refused.server";
import { AppError, actionRefusal } from "~/server/platform/http/app-error.server";

/**
 * The account page's settings: what its sections show, and POST /account/settings, which
 * answers each section's form by its intent. Staff use Change Password and Active Sessions only; the
 * applicant-only intents answer them 403 (the page does not offer them either).
 */

export async function loadAccountSettings({ actor, request: info }: Caller<SettingsActor>, db: Db = getDb()): Promise<AccountSettingsView> {
  // This device is in use now: Active Sessions shows it with a fresh Last Seen and its address.
  await touchSession(db, { id: actor.sessionId }, info.ip);
  const sessions = await listSessions(db, actor.id, actor.sessionId);
  if (actor.isStaff) return { isStaff: true, email: actor.email, profile: null, pendingEmailChange: null, sessions, notifications: null };
  const [[profile], pendingEmailChange, notifications] = await Promise.all([
    db.select({ fullName: profiles.fullName, phone: profiles.phone }).from(profiles).where(eq(profiles.id, actor.id)).limit(1),
    loadPendingEmailChange(db, actor.id),
    loadNotificationPreferences(db, actor.id),
  ]);
  return {
    isStaff: false,
    email: actor.email,
    profile: { fullName: profile?.fullName ?? actor.name, phone: profile?.phone ?? null },
    pendingEmailChange,
    sessions,
    notifications,
  };
}

/** The longest form (three passwords of 128 characters, an intent) fits easily; anything bigger is not ours. */
export const ACCOUNT_SETTINGS_MAX_BYTES = 4096;

export type AccountSettingsAnswer = ServiceAnswer<AccountSettingsActionData>;

function refusal(status: number, intent: AccountSettingsIntent | null, message: string, fieldErrors?: AccountSettingsActionData["fieldErrors"], headers?: Record<string, string>): AccountSettingsAnswer {
  const title = intent ? ACCOUNT_SETTINGS_FAILED[intent] : "Could not save your settings";
  const body: AccountSettingsActionData = { ok: false, intent, toast: errorToast(title, message), at: Date.now() };
  if (fieldErrors) body.fieldErrors = fieldErrors;
  return headers ? { status, body, headers } : { status, body };
}

const isIntent = (value: unknown): value is AccountSettingsIntent => typeof value === "string" && (ACCOUNT_SETTINGS_INTENTS as readonly string[]).includes(value);

/** Acts; answers a toast only where it must say more than the intent's usual one. */
async function perform(intent: AccountSettingsIntent, input: unknown, caller: Caller<SettingsActor>, db: Db): Promise<Toast | void> {
  switch (intent) {
    case "update-profile":
      return updateProfile(db, input as AccountSettingsInput<"update-profile">, caller);
    case "request-email-change":
      return requestEmailChange(db, input as AccountSettingsInput<"request-email-change">, caller);
    case "confirm-email-change":
      await confirmEmailChange(db, input as AccountSettingsInput<"confirm-email-change">, caller);
      return;
    case "change-password": {
      const { passkeysRemoved } = await changePassword(db, input as AccountSettingsInput<"change-password">, caller);
      if (passkeysRemoved === 0) return;
      const toast = ACCOUNT_SETTINGS_TOASTS["change-password"];
      return { ...toast, description: `${toast.description} ${passkeysRemoved === 1 ? "Your passkey was" : `Your ${passkeysRemoved} passkeys were`} removed.` };
    }
    case "revoke-other-sessions":
      await revokeOtherSessions(db, input as AccountSettingsInput<"revoke-other-sessions">, caller);
      return;
    case "update-notifications":
      return updateNotificationPreferences(db, input as AccountSettingsInput<"update-notifications">, caller);
  }
}

/**
 * POST /account/settings (the route checked the origin and the signed-in user). Bad input 400 on its
 * fields, a wrong password 400 on its field, staff on an applicant-only form 403, a lost race 409, too
 * many tries 429; never a 500 for anything the person sent.
 */
export async function accountSettingsAction(request: Request, caller: Caller<SettingsActor & { mfaVerified: boolean }>, db: Db = getDb()): Promise<AccountSettingsAnswer> {
  const { actor } = caller;
  const read = await readAccountForm(request, ACCOUNT_SETTINGS_MAX_BYTES, (message): AccountSettingsActionData => refusal(400, null, message).body);
  if (!read.ok) return read.answer;
  const { form, intent } = read;
  if (!isIntent(intent)) return refusal(400, null, ACCOUNT_SETTINGS_MESSAGES.intent);
  if (actor.isStaff && APPLICANT_ONLY_INTENTS.includes(intent)) return refusal(403, intent, ACCOUNT_SETTINGS_MESSAGES.staffRefused);
  // A staff session that has not passed its second factor may not change what guards the account.
  if (actor.isStaff && !actor.mfaVerified) return refusal(403, intent, "Verify your second factor first (/admin/mfa).");

  const raw: Record<string, unknown> = {};
  for (const [name, value] of form) if (typeof value === "string") raw[name] = value;
  const parsed = ACCOUNT_SETTINGS_SCHEMAS[intent].safeParse(raw);
  if (!parsed.success) {
    const fieldErrors = issuesToFieldErrors(parsed.error);
    return refusal(400, intent, Object.values(fieldErrors)[0]?.[0] ?? ACCOUNT_SETTINGS_MESSAGES.intent, fieldErrors);
  }
  try {
    const toast = await perform(intent, parsed.data, caller, db);
    return { status: 200, body: { ok: true, intent, toast: toast ?? ACCOUNT_SETTINGS_TOASTS[intent], at: Date.now() } };
  } catch (error) {
    if (error instanceof AppError) return actionRefusal(error, { title: ACCOUNT_SETTINGS_FAILED[intent], stamped: true }, { intent });
    logFailure("account", `${intent} failed`, error);
    return refusal(503, intent, ACCOUNT_SETTINGS_MESSAGES.failed);
  }
}
