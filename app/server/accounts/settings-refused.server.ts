import type { AuditActor } from "~/server/platform/audit/audit.server";
import { matchingPasswordHash } from "~/server/accounts/current-password.server";
import type { Db } from "~/server/platform/db/client.server";
import { hit, tooManyAttemptsMessage } from "~/server/platform/security/throttle.server";
import { ACCOUNT_SETTINGS_MESSAGES } from "~/domain/validation/account-settings";

/** Who changes their settings: the signed-in user and the session they asked from. */
export type SettingsActor = AuditActor & { isStaff: boolean; sessionId: string };

/** A refusal the action answers with its status and, when it is about one field, on that field. */
export class AccountSettingsRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** Current-password checks per account: 5 per 15 minutes, shared by Change Email, Change Password and Sign Out Other Sessions. */
export const CURRENT_PASSWORD_THROTTLE = { limit: 5, windowSeconds: 900 } as const;

/**
 * The current password, checked (argon2id, before any transaction: no lock waits on it). Every try
 * counts, so a borrowed unlocked browser cannot guess its way to a new password or address. Answers the
 * stored hash that matched, so the write can be conditional on it still being the same.
 */
export async function checkCurrentPassword(db: Db, actor: SettingsActor, password: string, field = "currentPassword"): Promise<string> {
  const limit = await hit(`account-password-check:${actor.id}`, CURRENT_PASSWORD_THROTTLE, { db });
  if (!limit.allowed) throw new AccountSettingsRefused(429, tooManyAttemptsMessage(limit.retryAfterSeconds), undefined, limit.retryAfterSeconds);
  const hash = await matchingPasswordHash(db, actor.id, password);
  if (!hash) throw new AccountSettingsRefused(400, ACCOUNT_SETTINGS_MESSAGES.wrongPassword, field);
  return hash;
}

/** PostgreSQL's unique_violation (23505), however the driver wraps it. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === "23505" || e?.cause?.code === "23505";
}
