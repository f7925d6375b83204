import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import { ESIGN_CONSENT_VERSION } from "~/domain/esign-consent";
import { UUID_PATTERN } from "~/domain/ids";
import { writeAudit, type AuditActor, type Caller, type RequestInfo } from "~/server/platform/audit/audit.server";
import { recordEvent } from "~/server/conversation/index.server";
import { getDb, type Db, type DbOrTx, type Tx } from "~/server/platform/db/client.server";
import { esignConsents, loanOffers } from "~/server/platform/db/schema.server";
import { personById } from "~/server/accounts/index.server";
import { applicationById } from "~/server/applications/index.server";
import { AppError } from "~/server/platform/http/app-error.server";

/**
 * E-SIGN consent (15 U.S.C. 7001(c)): given per application on the way to signing its
 * offer, with the consent text's version, the time, the IP address and the browser; withdrawn by
 * stamping withdrawn_at (never deleted: a signed agreement names the consent it relied on). Both are
 * conditional writes: the partial unique index esign_consents_one_current_idx keeps one current
 * consent per person and application, so a double click or two tabs store one consent.
 */

export const NOT_FOUND_MESSAGE = "This application does not exist.";

/** Who is asking: applicants only (staff work on /admin, where their second factor applies). */
export type OfferViewer = AuditActor & { isStaff: boolean };

export type OwnApplication = {
  id: string;
  userId: string;
  firstName: string;
  middleInitial: string | null;
  lastName: string;
  /** The name the person gave at sign-up (a typed signature may be it). */
  accountName: string;
  email: string;
  addressLine1: string;
  addressLine2: string | null;
  city: string;
  state: string;
  zipCode: string;
};

/**
 * The viewer's own application (the columns the agreement needs), or null: another person's id, a
 * malformed id and staff all read as "not found", so the answer never says whether it exists.
 */
export async function ownApplication(applicationId: unknown, viewer: { id: string; isStaff: boolean }, db: DbOrTx = getDb()): Promise<OwnApplication | null> {
  if (viewer.isStaff) return null;
  if (typeof applicationId !== "string" || !UUID_PATTERN.test(applicationId)) return null;
  const [app, person] = await Promise.all([applicationById(applicationId.toLowerCase(), db), personById(viewer.id, db)]);
  if (!app || app.userId !== viewer.id || !person) return null;
  const { id, userId, firstName, middleInitial, lastName, email, addressLine1, addressLine2, city, state, zipCode } = app;
  return { id, userId, firstName, middleInitial, lastName, accountName: person.name, email, addressLine1, addressLine2, city, state, zipCode };
}

export type CurrentConsent = { id: string; version: string; consentedAt: Date; ipAddress: string | null; userAgent: string | null };

/** The person's consent for this application that is not withdrawn, or null. */
export async function currentConsent(applicationId: string, userId: string, db: DbOrTx = getDb()): Promise<CurrentConsent | null> {
  const [row] = await db
    .select({
      id: esignConsents.id,
      version: esignConsents.version,
      consentedAt: esignConsents.consentedAt,
      ipAddress: esignConsents.ipAddress,
      userAgent: esignConsents.userAgent,
    })
    .from(esignConsents)
    .where(and(eq(esignConsents.applicationId, applicationId), eq(esignConsents.userId, userId), isNull(esignConsents.withdrawnAt)))
    .orderBy(desc(esignConsents.consentedAt))
    .limit(1);
  return row ?? null;
}

const userAgentOf = (request: RequestInfo) => request.userAgent?.slice(0, 500) ?? null;

/**
 * A consent given or withdrawn, on the timeline and in the audit log: the audit row repeats the
 * request's address and browser in its details, as the consent row itself keeps them.
 */
async function recordConsentChange(
  tx: Tx,
  app: OwnApplication,
  { actor, request }: Caller<OfferViewer>,
  change: { kind: "esign_consented" | "esign_withdrawn"; action: "esign.consent" | "esign.withdraw"; consentId: string; details: Record<string, string> },
): Promise<void> {
  await recordEvent(tx, { applicationId: app.id, ownerId: app.userId, kind: change.kind, actorId: actor.id, actorSide: "applicant" });
  const details = { applicationId: app.id, ...change.details, ip: request.ip ?? null, userAgent: userAgentOf(request) };
  await writeAudit(tx, { actor, action: change.action, table: "esign_consents", recordId: change.consentId, details, request });
}

/**
 * "I Agree": stores the consent (version ESIGN_CONSENT_VERSION) with its timeline event and audit row.
 * Asked only while the application has an open offer. Giving it again while one is current changes
 * nothing and answers the current one (`created: false`).
 */
export async function giveConsent(
  applicationId: string, caller: Caller<OfferViewer>, db: Db = getDb(), now: Date = new Date(),
): Promise<{ consent: CurrentConsent; created: boolean }> {
  const { actor: viewer, request } = caller;
  const app = await ownApplication(applicationId, viewer, db);
  if (!app) throw new AppError("offer_action", 404, NOT_FOUND_MESSAGE);
  const [open] = await db
    .select({ id: loanOffers.id })
    .from(loanOffers)
    .where(and(eq(loanOffers.applicationId, app.id), eq(loanOffers.status, "offered"), gt(loanOffers.expiresAt, now)))
    .limit(1);
  if (!open) throw new AppError("offer_action", 409, "There is no open loan offer on this application to consent for.");

  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(esignConsents)
      .values({
        userId: viewer.id,
        applicationId: app.id,
        version: ESIGN_CONSENT_VERSION,
        consentedAt: now,
        ipAddress: request.ip ?? null,
        userAgent: userAgentOf(request),
      })
      .onConflictDoNothing({ target: [esignConsents.userId, esignConsents.applicationId], where: sql`withdrawn_at is null` })
      .returning({
        id: esignConsents.id,
        version: esignConsents.version,
        consentedAt: esignConsents.consentedAt,
        ipAddress: esignConsents.ipAddress,
        userAgent: esignConsents.userAgent,
      });
    const created = inserted[0];
    if (!created) {
      const existing = await currentConsent(app.id, viewer.id, tx);
      if (!existing) throw new AppError("offer_action", 409, "Your consent could not be recorded. Please try again.");
      return { consent: existing, created: false };
    }
    const details = { version: created.version, consentedAt: created.consentedAt.toISOString() };
    await recordConsentChange(tx, app, caller, { kind: "esign_consented", action: "esign.consent", consentId: created.id, details });
    return { consent: created, created: true };
  });
}

/**
 * Withdraw E-SIGN Consent: one conditional UPDATE (… WHERE withdrawn_at IS NULL), its timeline event
 * and audit row. Records already signed stay signed (the consent text says so); 409 when there is no
 * current consent to withdraw.
 */
export async function withdrawConsent(applicationId: string, caller: Caller<OfferViewer>, db: Db = getDb(), now: Date = new Date()): Promise<{ consentId: string }> {
  const viewer = caller.actor;
  const app = await ownApplication(applicationId, viewer, db);
  if (!app) throw new AppError("offer_action", 404, NOT_FOUND_MESSAGE);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(esignConsents)
      .set({ withdrawnAt: now })
      .where(and(eq(esignConsents.applicationId, app.id), eq(esignConsents.userId, viewer.id), isNull(esignConsents.withdrawnAt)))
      .returning({ id: esignConsents.id, version: esignConsents.version });
    if (!row) throw new AppError("offer_action", 409, "You have no current E-SIGN consent on this application to withdraw.");
    const details = { version: row.version, withdrawnAt: now.toISOString() };
    await recordConsentChange(tx, app, caller, { kind: "esign_withdrawn", action: "esign.withdraw", consentId: row.id, details });
    return { consentId: row.id };
  });
}
