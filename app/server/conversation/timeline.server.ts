import { and, desc, eq, sql } from "drizzle-orm";
import type { ApplicationEventKind, ConversationSide } from "~/domain/conversation-enums";
import { applicationEventLabel } from "~/domain/labels";
import type { TimelineEntry } from "~/domain/views/application-page";
import { getDb, type DbOrTx } from "~/server/platform/db/client.server";
import { applicationEvents } from "~/server/platform/db/schema.server";
import { peopleByIds, type Person } from "~/server/accounts/index.server";

/**
 * The Application Timeline: every service that changes an application, its requests or its
 * conversation records an event here in the same transaction as the change, so the timeline never
 * shows something that did not commit, nor misses something that did. The insert also raises the
 * live-update NOTIFY (trigger application_events_notify) that refreshes the other side's open page.
 */

export type NewTimelineEvent = {
  applicationId: string;
  /** The application's owner (the applicant). */
  ownerId: string;
  kind: ApplicationEventKind;
  actorId: string | null;
  actorSide: ConversationSide | null;
  /** A short, non-sensitive line for the timeline (never an SSN, a bank number or a file's content). */
  summary?: string | null;
  /** Staff only (internal notes). */
  internal?: boolean;
};

export async function recordEvent(tx: DbOrTx, event: NewTimelineEvent): Promise<void> {
  await tx.insert(applicationEvents).values({
    applicationId: event.applicationId,
    userId: event.ownerId,
    kind: event.kind,
    actorId: event.actorId,
    actorSide: event.actorSide,
    summary: event.summary ?? null,
    internal: event.internal ?? false,
    // The time of the insert itself, not of the transaction: events written together (Approved, then
    // Loan Offer Made) keep their order on the timeline.
    createdAt: sql`clock_timestamp()`,
  });
}

/** How much of a staff member's own text (a note, a send-back comment) its timeline entry repeats; the whole text stays where it was written. */
const STAFF_TEXT_SUMMARY_LENGTH = 200;

/** A staff member's internal entry (staff only) whose line is their own text, cut with an ellipsis past STAFF_TEXT_SUMMARY_LENGTH. */
export async function recordStaffText(
  tx: DbOrTx, entry: { applicationId: string; ownerId: string; kind: ApplicationEventKind; staffId: string; text: string },
): Promise<void> {
  const { applicationId, ownerId, kind, staffId, text } = entry;
  const summary = text.length > STAFF_TEXT_SUMMARY_LENGTH ? `${text.slice(0, STAFF_TEXT_SUMMARY_LENGTH - 1)}…` : text;
  await recordEvent(tx, { applicationId, ownerId, kind, actorId: staffId, actorSide: "staff", summary, internal: true });
}

/** The lender as an applicant sees staff (never a staff member's name or e-mail). */
export const LENDER_SIDE_NAME = "Private Loans";

/**
 * The timeline of one application, newest first. The applicant's view leaves out internal entries and
 * shows staff as the lender; staff see every entry and each actor's name. The caller has already
 * checked that the viewer may see this application.
 */
export async function listTimeline(
  applicationId: string,
  viewer: { id: string; side: ConversationSide },
  db: DbOrTx = getDb(),
): Promise<TimelineEntry[]> {
  const rows = await db
    .select({
      id: applicationEvents.id,
      kind: applicationEvents.kind,
      summary: applicationEvents.summary,
      internal: applicationEvents.internal,
      actorId: applicationEvents.actorId,
      actorSide: applicationEvents.actorSide,
      createdAt: applicationEvents.createdAt,
    })
    .from(applicationEvents)
    .where(
      viewer.side === "staff"
        ? eq(applicationEvents.applicationId, applicationId)
        : and(eq(applicationEvents.applicationId, applicationId), eq(applicationEvents.internal, false)),
    )
    .orderBy(desc(applicationEvents.createdAt), desc(applicationEvents.id));
  // Staff see the actors' names; an applicant sees "You" and the lender, so no names are read.
  const actors = viewer.side === "staff" ? await peopleByIds(rows.map((r) => r.actorId), db) : new Map<string, Person>();

  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    title: applicationEventLabel(r.kind),
    summary: r.summary,
    actor: actorLabel({ ...r, actorName: (r.actorId && actors.get(r.actorId)?.profileName) || null }, viewer),
    internal: r.internal,
    at: r.createdAt.toISOString(),
  }));
}

function actorLabel(row: { actorId: string | null; actorSide: ConversationSide | null; actorName: string | null }, viewer: { id: string; side: ConversationSide }): string | null {
  if (row.actorSide === null) return null;
  if (viewer.side === "applicant") return row.actorSide === "staff" ? LENDER_SIDE_NAME : "You";
  if (row.actorSide === "applicant") return row.actorName?.trim() || "Applicant";
  return row.actorId === viewer.id ? "You" : row.actorName?.trim() || "Staff";
}
