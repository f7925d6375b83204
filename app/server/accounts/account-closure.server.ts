import { and, eq, isNull, sql } from "drizzle-orm";
import { applicationReference } from "~/domain/formats";
import { ACCOUNT_DATA_MESSAGES } from "~/domain/validation/account-data";
import type { AccountClosureView } from "~/domain/views/account";
import { applicationStatusLabel, loanTypeLabel } from "~/domain/labels";
import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";
import { matchingPasswordHash } from "~/server/accounts/current-password.server";
import { endAllSessions } from "./sessions.server";
import type { Db, DbOrTx } from "~/server/platform/db/client.server";
import {
  adminMfa,
  dataExports,
  emailVerificationCodes,
  notificationPreferences,
  passkeys,
  profiles,
  twoFactor,
  webauthnChallenges,
} from "~/server/platform/db/schema.server";
import { accountClosedEmail } from "~/server/accounts/account-data-emails.server";
import { enqueueEmail } from "~/server/platform/mail/outbox.server";
import { hit } from "~/server/platform/security/throttle.server";
import { APPLICATION_RETENTION } from "~/server/retention/index.server";
import { applicationClocksOf, applicationTypeAndStatus, deleteDraftsOf, openApplicationOf } from "~/server/applications/index.server";
import { awaitedOfferApplication } from "~/server/offers/index.server";
import { hasCurrentLoan, loanStatesByApplicationIds } from "~/server/loans/index.server";
import type { DocumentStorage } from "~/server/platform/storage/storage-keys.server";
import { DECIDED_APPLICATION_STATUSES } from "~/domain/enums";
import { AppError } from "~/server/platform/http/app-error.server";

/**
 * Close My Account. After the password (and a typed confirmation, checked by the schema),
 * one transaction: the profile is marked closed (the session hook then refuses every new session),
 * every session is deleted (signed out everywhere), what the law does not require is deleted now, and
 * what it does require (applications with their documents, bank accounts, offers, loans and payments,
 * consents, the audit log) stays until the retention job's periods end. Refused while a loan is active,
 * an offer waits for the applicant's decision, or an application is still under consideration (the
 * lender still owes and is owed notices on them); the applicant withdraws such an application first.
 */

/** Wrong passwords per account: 5 per 15 minutes (closing is rare; guessing is not allowed to be cheap). */
export const CLOSE_ACCOUNT_THROTTLE = { limit: 5, windowSeconds: 900 } as const;

/** What goes at once (the page lists it in these words). */
export const DELETED_AT_CLOSURE = [
  "Your sign-in sessions on every device",
  "Saved application drafts and their uploaded files",
  "Passkeys and two-factor authentication settings",
  "Notification preferences",
  "Download My Data files and pending e-mail codes",
] as const;

/** Months → words, as the privacy notice says it ("7 years"). */
export function periodWords(months: number): string {
  if (months % 12 === 0) return `${months / 12} ${months === 12 ? "year" : "years"}`;
  return `${months} months`;
}

/** `months` calendar months after `from` (UTC), the day clamped to the month's end as cutoffFor does. */
export function addMonths(from: Date, months: number): Date {
  const to = new Date(from.getTime());
  const day = to.getUTCDate();
  to.setUTCDate(1);
  to.setUTCMonth(to.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(to.getUTCFullYear(), to.getUTCMonth() + 1, 0)).getUTCDate();
  to.setUTCDate(Math.min(day, lastDay));
  return to;
}

/** The explanation the page shows: what goes now, what is kept and until when, and what blocks closing. */
export async function loadClosureView(db: DbOrTx, userId: string): Promise<AccountClosureView> {
  const months = APPLICATION_RETENTION.months;
  const applications = await applicationClocksOf(userId, db);
  const loans = await loanStatesByApplicationIds(applications.map((a) => a.id), db);
  const apps = applications.map((a) => ({ ...a, loanStatus: loans.get(a.id)?.status ?? null, loanUpdatedAt: loans.get(a.id)?.updatedAt ?? null }));
  const blocker = await closureBlocker(db, userId);
  const kept = apps.map((a) => {
    // The same clocks as the disposal job (retention/disposal.server.ts).
    if (a.loanStatus === "active" || a.loanStatus === "approved") return { record: `${loanTypeLabel(a.loanType)} application and loan`, until: `${periodWords(months)} after the loan ends` };
    const clock =
      a.loanStatus && a.loanUpdatedAt
        ? a.loanUpdatedAt
        : (DECIDED_APPLICATION_STATUSES as readonly string[]).includes(a.status) && a.reviewedAt
          ? a.reviewedAt
          : a.status === "withdrawn" && a.withdrawnAt
            ? a.withdrawnAt
            : a.updatedAt;
    return { record: `${loanTypeLabel(a.loanType)} application, its documents and bank account`, until: addMonths(clock, months).toISOString() };
  });
  return {
    deletedNow: [...DELETED_AT_CLOSURE],
    keptPeriod: `${periodWords(months)} after the decision or the loan's end`,
    kept,
    blocker: blocker?.message ?? null,
    blockerApplicationId: blocker?.applicationId ?? null,
  };
}

type ClosureBlocker = { message: string; applicationId: string | null };

/**
 * What keeps the account open, in this order: an active loan; an offer waiting for the applicant
 * (its approval could never be signed once the account is closed); an application still under
 * consideration (pending or under review: a decision could follow that nobody can read or sign).
 * The last two name the application, whose page has Decline Offer or Withdraw Application.
 *
 * The three are read by ONE statement, so by one snapshot: a staff approval (pending → offer) or a
 * signature (offer → active loan) committing meanwhile is seen whole or not at all, and each of its
 * two sides blocks. New applications cannot appear meanwhile: a submission takes the profile's row
 * lock that closing holds (applications/submit.server.ts).
 */
async function closureBlocker(db: DbOrTx, userId: string): Promise<ClosureBlocker | null> {
  const result = await db.execute(sql`select
    ${hasCurrentLoan(userId)} as "activeLoan",
    ${awaitedOfferApplication(userId)} as "offerApplication",
    ${openApplicationOf(userId)} as "openApplication"`);
  const row = (result as unknown as { rows: { activeLoan: boolean; offerApplication: string | null; openApplication: string | null }[] }).rows[0];
  if (!row) return null;
  if (row.activeLoan) return { message: ACCOUNT_DATA_MESSAGES.activeLoan, applicationId: null };
  const applicationId = row.offerApplication ?? row.openApplication;
  if (!applicationId) return null;
  // The words only (the refusal is decided above): type, reference and status of the application named.
  const named = await applicationTypeAndStatus(applicationId, db);
  const loanType = loanTypeLabel(named?.loanType ?? "");
  const reference = applicationReference(applicationId);
  return {
    message: row.offerApplication
      ? ACCOUNT_DATA_MESSAGES.offerOpen({ loanType, reference })
      : ACCOUNT_DATA_MESSAGES.applicationOpen({ loanType, reference, status: applicationStatusLabel(named?.status ?? "pending") }),
    applicationId,
  };
}

export type ClosureResult = { closedAt: Date; filesRemoved: number };

export async function closeAccount(
  db: Db,
  storage: DocumentStorage,
  password: string,
  { actor, request: info }: Caller,
  now: Date = new Date(),
): Promise<ClosureResult> {
  const throttle = await hit(`account-close:${actor.id}`, CLOSE_ACCOUNT_THROTTLE, { db });
  if (!throttle.allowed) throw new AppError("account_closure", 429, `Too many attempts. Please wait ${Math.ceil(throttle.retryAfterSeconds / 60)} minutes and try again.`);
  // The password is checked before the transaction: argon2 takes a moment, and no lock waits on it.
  if (!(await matchingPasswordHash(db, actor.id, password))) {
    throw new AppError("account_closure", 400, ACCOUNT_DATA_MESSAGES.wrongPassword, { field: "password" });
  }

  const files = await db.transaction(async (tx) => {
    // The row lock orders two closings (two tabs) and a closing against itself: the second finds it closed.
    const locked = await tx.execute(sql`select id from profiles where id = ${actor.id} and closed_at is null for update`);
    if ((locked as unknown as { rows: unknown[] }).rows.length === 0) throw new AppError("account_closure", 409, ACCOUNT_DATA_MESSAGES.alreadyClosed);
    const blocker = await closureBlocker(tx, actor.id);
    if (blocker) throw new AppError("account_closure", 409, blocker.message);

    await tx.update(profiles).set({ closedAt: now }).where(and(eq(profiles.id, actor.id), isNull(profiles.closedAt)));
    const sessions = await endAllSessions(actor.id, tx);
    const { drafts, files: draftFiles } = await deleteDraftsOf(tx, actor.id);
    const exportFiles = (await tx.delete(dataExports).where(eq(dataExports.userId, actor.id)).returning({ key: dataExports.storageKey }))
      .map((r) => r.key)
      .filter((k): k is string => k !== null);
    const removed = {
      sessions,
      drafts,
      draftFiles: draftFiles.length,
      dataExports: exportFiles.length,
      passkeys: (await tx.delete(passkeys).where(eq(passkeys.userId, actor.id)).returning({ id: passkeys.id })).length,
      webauthnChallenges: (await tx.delete(webauthnChallenges).where(eq(webauthnChallenges.userId, actor.id)).returning({ id: webauthnChallenges.id })).length,
      notificationPreferences: (await tx.delete(notificationPreferences).where(eq(notificationPreferences.userId, actor.id)).returning({ id: notificationPreferences.userId })).length,
      emailCodes: (await tx.delete(emailVerificationCodes).where(eq(emailVerificationCodes.userId, actor.id)).returning({ id: emailVerificationCodes.id })).length,
      twoFactor:
        (await tx.delete(adminMfa).where(eq(adminMfa.userId, actor.id)).returning({ id: adminMfa.userId })).length +
        (await tx.delete(twoFactor).where(eq(twoFactor.userId, actor.id)).returning({ id: twoFactor.id })).length,
    };
    await writeAudit(tx, { actor, action: "account.close", table: "profiles", recordId: actor.id, details: { removed, closedAt: now.toISOString() }, request: info });
    await enqueueEmail(tx, {
      to: actor.email,
      ...accountClosedEmail({ name: actor.name, closedAt: now, keptUntil: `${periodWords(APPLICATION_RETENTION.months)} after the decision or the loan's end` }),
    });
    return [...draftFiles, ...exportFiles];
  });

  // Files after the commit (as the disposal job does): a failure leaves an orphan the sweep removes.
  let filesRemoved = 0;
  for (const key of files) {
    try {
      await storage.delete(key);
      filesRemoved++;
    } catch {
      // Left to the orphan sweep: no row points at it any more.
    }
  }
  return { closedAt: now, filesRemoved };
}
