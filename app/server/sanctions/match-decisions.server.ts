import { and, desc, eq, sql } from "drizzle-orm";
import { SANCTIONS_DECISION_MESSAGES } from "~/domain/validation/sanctions-decision";
import type { SanctionsList, SanctionsScreeningTrigger } from "~/domain/sanctions";
import type { SanctionsPanelView } from "~/domain/views/sanctions-panel";
import { accountNamesIn, peopleByIds } from "~/server/accounts/index.server";
import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";
import { getConfig } from "~/server/platform/config.server";
import type { DbOrTx, Tx } from "~/server/platform/db/client.server";
import { sanctionsMatches, sanctionsScreenings } from "~/server/platform/db/schema.server";
import { AppError } from "~/server/platform/http/app-error.server";
import { enqueueEmail } from "~/server/platform/mail/outbox.server";
import { activeStaffIdsSql } from "~/server/staff/index.server";
import { sanctionsClearance } from "./clearance.server";
import { sanctionsMatchConfirmedEmail } from "./match-confirmed-email.server";

/**
 * Staff decisions on potential sanctions matches, and what the staff application page shows of them.
 * A decision is one conditional UPDATE (… WHERE status = 'open'), so of two staff members deciding the
 * same match at once exactly one decides it and the other is told it was already decided. The caller
 * holds the application's row lock, which also orders a decision after a confirmation that froze it.
 */

/** The Sanctions Screening section: the state, the last screening, every match found (open first). */
export async function sanctionsPanel(applicationId: string, db: DbOrTx): Promise<SanctionsPanelView> {
  const [clearance, [last], matches] = await Promise.all([
    sanctionsClearance(applicationId, db),
    db
      .select({ screenedAt: sanctionsScreenings.screenedAt, trigger: sanctionsScreenings.trigger, lists: sanctionsScreenings.lists, matchCount: sanctionsScreenings.matchCount })
      .from(sanctionsScreenings)
      .where(eq(sanctionsScreenings.applicationId, applicationId))
      .orderBy(desc(sanctionsScreenings.screenedAt), desc(sanctionsScreenings.id))
      .limit(1),
    db
      .select()
      .from(sanctionsMatches)
      .where(eq(sanctionsMatches.applicationId, applicationId))
      .orderBy(sql`${sanctionsMatches.status} = 'open' desc`, desc(sanctionsMatches.createdAt), desc(sanctionsMatches.id)),
  ]);
  const names = await peopleByIds(matches.map((m) => m.decidedBy), db);
  const lists = Array.isArray(last?.lists) ? (last.lists as { list: SanctionsList; publishedOn: string }[]) : [];
  return {
    state: clearance.state,
    lastScreening: last
      ? {
          screenedAt: last.screenedAt.toISOString(),
          trigger: last.trigger as SanctionsScreeningTrigger,
          lists: lists.map(({ list, publishedOn }) => ({ list, publishedOn })),
          matchCount: last.matchCount,
        }
      : null,
    matches: matches.map((m) => ({
      id: m.id,
      status: m.status,
      match: m.match,
      foundAt: m.createdAt.toISOString(),
      decidedByName: m.decidedBy ? (names.get(m.decidedBy)?.name ?? "Former staff member") : null,
      decidedAt: m.decidedAt?.toISOString() ?? null,
      reason: m.reason,
    })),
  };
}

export type MatchDecision = { applicationId: string; matchId: string; reason: string };

/** Refuses a decision on an application whose match was confirmed: it is frozen. */
async function refuseWhenFrozen(tx: Tx, applicationId: string): Promise<void> {
  const [confirmed] = await tx
    .select({ id: sanctionsMatches.id })
    .from(sanctionsMatches)
    .where(and(eq(sanctionsMatches.applicationId, applicationId), eq(sanctionsMatches.status, "confirmed")))
    .limit(1);
  if (confirmed) throw new AppError("sanctions_decision", 409, SANCTIONS_DECISION_MESSAGES.frozen);
}

/** open → cleared or confirmed, once; 404 when the match is not this application's, 409 when already decided. */
async function decide(tx: Tx, decision: MatchDecision, status: "cleared" | "confirmed", actorId: string, now: Date) {
  await refuseWhenFrozen(tx, decision.applicationId);
  const [decided] = await tx
    .update(sanctionsMatches)
    .set({ status, decidedBy: actorId, decidedAt: now, reason: decision.reason })
    .where(and(eq(sanctionsMatches.id, decision.matchId), eq(sanctionsMatches.applicationId, decision.applicationId), eq(sanctionsMatches.status, "open")))
    .returning({ fingerprint: sanctionsMatches.entryFingerprint, match: sanctionsMatches.match });
  if (decided) return decided;
  const [exists] = await tx
    .select({ id: sanctionsMatches.id })
    .from(sanctionsMatches)
    .where(and(eq(sanctionsMatches.id, decision.matchId), eq(sanctionsMatches.applicationId, decision.applicationId)))
    .limit(1);
  throw exists
    ? new AppError("sanctions_decision", 409, SANCTIONS_DECISION_MESSAGES.decided)
    : new AppError("sanctions_decision", 404, SANCTIONS_DECISION_MESSAGES.matchNotFound);
}

/**
 * Clear Match: staff decided the applicant is not the listed person. The entry (by its fingerprint) is
 * not flagged again for this application until the list changes what it says about it. Audited
 * 'sanctions.clear' with the fingerprint and the reason.
 */
export async function clearSanctionsMatch(tx: Tx, decision: MatchDecision, { actor, request }: Caller, now: Date = new Date()): Promise<void> {
  const decided = await decide(tx, decision, "cleared", actor.id, now);
  await writeAudit(tx, {
    actor,
    action: "sanctions.clear",
    table: "sanctions_matches",
    recordId: decision.matchId,
    details: { applicationId: decision.applicationId, fingerprint: decided.fingerprint, list: decided.match.list, entityNumber: decided.match.entityNumber, reason: decision.reason },
    request,
  });
}

/**
 * Confirm Match: staff decided the applicant is the listed person. The application's clearance becomes
 * "confirmed" for good (no funding, no further decision); every active admin is e-mailed a link to the
 * application, naming nobody but the applicant. Audited 'sanctions.confirm'. The caller denies the
 * application in the same transaction.
 */
export async function confirmSanctionsMatch(
  tx: Tx, decision: MatchDecision & { applicantName: string }, { actor, request }: Caller, now: Date = new Date(),
): Promise<{ adminsTold: number }> {
  const decided = await decide(tx, decision, "confirmed", actor.id, now);
  await writeAudit(tx, {
    actor,
    action: "sanctions.confirm",
    table: "sanctions_matches",
    recordId: decision.matchId,
    details: { applicationId: decision.applicationId, fingerprint: decided.fingerprint, list: decided.match.list, entityNumber: decided.match.entityNumber, reason: decision.reason },
    request,
  });
  const admins = await accountNamesIn(activeStaffIdsSql(["admin"]), tx);
  const people = await peopleByIds(admins.map((admin) => admin.id), tx);
  const confirmedBy = (await peopleByIds([actor.id], tx)).get(actor.id)?.name ?? "A staff member";
  const email = sanctionsMatchConfirmedEmail({ applicantName: decision.applicantName, applicationId: decision.applicationId, confirmedBy, confirmedAt: now, baseUrl: getConfig().publicUrl });
  let adminsTold = 0;
  for (const admin of admins) {
    const to = people.get(admin.id)?.email;
    if (!to) continue;
    await enqueueEmail(tx, { to, ...email });
    adminsTold += 1;
  }
  return { adminsTold };
}
