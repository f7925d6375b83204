import { eq, max } from "drizzle-orm";
import { privacyNoticeChanged } from "~/content/legal/privacy-notice";
import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";
import { getConfig } from "~/server/platform/config.server";
import { landingPath } from "~/server/accounts/session.server";
import { getDb, type Db, type DbOrTx } from "~/server/platform/db/client.server";
import { privacyAcceptances } from "~/server/platform/db/schema.server";

/**
 * The privacy notice people accepted (GLBA). Sign-up records the version current then; a
 * newer current version is shown once at the next sign-in (/account/privacy) and recorded when the
 * person confirms they read it. Accounts older than the records have no row and count as having
 * accepted the baseline version (privacy-notice.ts), so they are asked only when the notice changes.
 */

/** The version the server treats as current (PRIVACY_NOTICE_VERSION, else the content's). */
export function currentPrivacyNoticeVersion(): string {
  return getConfig().privacyNoticeVersion;
}

/** The newest version this person accepted, or null when none is recorded. */
export async function acceptedPrivacyNoticeVersion(db: DbOrTx, userId: string): Promise<string | null> {
  const [row] = await db.select({ version: max(privacyAcceptances.noticeVersion) }).from(privacyAcceptances).where(eq(privacyAcceptances.userId, userId));
  return row?.version ?? null;
}

/** Whether the sign-in landing should show the changed notice first. Staff are not the notice's audience. */
export async function mustSeePrivacyNotice(db: DbOrTx, user: { id: string; isStaff: boolean }): Promise<boolean> {
  if (user.isStaff) return false;
  return privacyNoticeChanged(await acceptedPrivacyNoticeVersion(db, user.id), currentPrivacyNoticeVersion());
}

/** Records that the person accepted `version` (once: a repeat is a no-op, audited only the first time). */
export async function recordPrivacyAcceptance(db: DbOrTx, version: string, { actor, request: info }: Caller, audit = true): Promise<boolean> {
  const inserted = await db
    .insert(privacyAcceptances)
    .values({ userId: actor.id, noticeVersion: version, ipAddress: info.ip ?? null, userAgent: info.userAgent?.slice(0, 500) ?? null })
    .onConflictDoNothing()
    .returning({ id: privacyAcceptances.id });
  if (inserted.length > 0 && audit) {
    await writeAudit(db, { actor, action: "privacy.accept", table: "privacy_acceptances", recordId: inserted[0]!.id, details: { version }, request: info });
  }
  return inserted.length > 0;
}

/** "I Have Read This" on /account/privacy: the current version, recorded with the audit row in one transaction. */
export async function acceptCurrentPrivacyNotice(db: Db, caller: Caller): Promise<void> {
  await db.transaction((tx) => recordPrivacyAcceptance(tx, currentPrivacyNoticeVersion(), caller));
}

/**
 * Where a successful sign-in lands: the usual landing page, or first the changed privacy notice with
 * the usual landing page to go on to. Only here, at sign-in (not on every request): the notice is
 * shown once at the next sign-in, and a page load never depends on it.
 */
export async function signInLanding(result: { isStaff?: boolean; userId?: string }, redirectTo: string | null): Promise<string> {
  const landing = landingPath(result.isStaff ?? false, redirectTo);
  if (!result.userId || !(await mustSeePrivacyNotice(getDb(), { id: result.userId, isStaff: result.isStaff ?? false }))) return landing;
  return `/account/privacy?redirectTo=${encodeURIComponent(landing)}`;
}
