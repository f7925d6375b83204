import { and, asc, eq, inArray, sql, type Placeholder, type SQL } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import type { ConversationSide } from "~/domain/conversation-enums";
import type { ConversationView } from "~/domain/views/application-page";
import { writeAudit, type AuditActor, type Caller } from "~/server/platform/audit/audit.server";
import { getConfig } from "~/server/platform/config.server";
import { getDb, type Db, type DbOrTx } from "~/server/platform/db/client.server";
import { preparedOn } from "~/server/platform/db/prepared.server";
import { applicationMessages, conversationCounts, conversationNotices, conversationReaderTotals, conversationReads } from "~/server/platform/db/schema.server";
import { keptCountSql } from "~/server/platform/db/row-counts.server";
import { peopleByIds, personById, type Person } from "~/server/accounts/index.server";
import { applicationById, applicationIdsOfSql } from "~/server/applications/index.server";
import { enqueueEmail } from "~/server/platform/mail/outbox.server";
import { newMessageEmail } from "~/server/conversation/message-emails.server";
import { LENDER_SIDE_NAME, recordEvent } from "./timeline.server";
import { AppError } from "~/server/platform/http/app-error.server";

/**
 * The Messages panel: the conversation between the applicant and staff about one
 * application. Plain text only. Reads here; sending, read marks and the e-mail notice are beside them.
 * The caller has already checked that the viewer may see this application.
 */

export type ConversationViewer = { id: string; side: ConversationSide };

/**
 * Unread messages are counted, not compared by instant (decision 0048): conversation_counts keeps how
 * many messages each side has written in a conversation, a read mark keeps how many of each it had
 * when the reader last read it, and unread is the other side's difference. `greatest(…, 0)` only
 * guards the display; the counts never run backwards (messages are deleted only with their application).
 */
/** A viewer whose id may be a prepared statement's placeholder. */
type ViewerOrPlaceholder = { id: string | Placeholder; side: ConversationSide };

const otherSideCount = (viewer: ViewerOrPlaceholder) => (viewer.side === "applicant" ? conversationCounts.staffMessages : conversationCounts.applicantMessages);
const otherSideSeen = (viewer: ViewerOrPlaceholder) => (viewer.side === "applicant" ? conversationReads.seenStaff : conversationReads.seenApplicant);
const unreadOf = (viewer: ViewerOrPlaceholder) => sql<number>`greatest(${otherSideCount(viewer)} - coalesce(${otherSideSeen(viewer)}, 0), 0)::int`;

/** Messages from the other side the reader has not seen: one row of each table. */
export async function unreadCount(applicationId: string, viewer: ConversationViewer, db: DbOrTx = getDb()): Promise<number> {
  const counts = await unreadCounts([applicationId], viewer, db);
  return counts.get(applicationId) ?? 0;
}

export async function loadConversation(applicationId: string, viewer: ConversationViewer, db: DbOrTx = getDb()): Promise<ConversationView> {
  const rows = await db
    .select({
      id: applicationMessages.id,
      side: applicationMessages.authorSide,
      authorId: applicationMessages.authorId,
      body: applicationMessages.body,
      createdAt: applicationMessages.createdAt,
    })
    .from(applicationMessages)
    .where(eq(applicationMessages.applicationId, applicationId))
    .orderBy(asc(applicationMessages.createdAt), asc(applicationMessages.id));
  // Staff see the authors' names; an applicant sees "You" and the lender, so no names are read.
  const [authors, unread] = await Promise.all([
    viewer.side === "staff" ? peopleByIds(rows.map((r) => r.authorId), db) : new Map<string, Person>(),
    unreadCount(applicationId, viewer, db),
  ]);
  return {
    unread,
    messages: rows.map((r) => {
      const mine = r.authorId === viewer.id;
      const author =
        viewer.side === "applicant"
          ? r.side === "staff"
            ? LENDER_SIDE_NAME
            : "You"
          : mine
            ? "You"
            : (r.authorId && authors.get(r.authorId)?.profileName?.trim()) || (r.side === "applicant" ? "Applicant" : "Staff");
      return { id: r.id, side: r.side, author, body: r.body, at: r.createdAt.toISOString(), mine };
    }),
  };
}

/**
 * Unread counts for many applications at once (the dashboard cards, a page of the admin list): one
 * query over one counts row and one read mark per application. Applications without unread messages
 * are absent from the map.
 */
export async function unreadCounts(applicationIds: readonly string[], viewer: ConversationViewer, db: DbOrTx = getDb()): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (applicationIds.length === 0) return counts;
  const rows = await db
    .select({ applicationId: conversationCounts.applicationId, n: unreadOf(viewer) })
    .from(conversationCounts)
    .leftJoin(conversationReads, readMarkOf(viewer))
    .where(inArray(conversationCounts.applicationId, [...new Set(applicationIds)]));
  for (const row of rows) if (Number(row.n) > 0) counts.set(row.applicationId, Number(row.n));
  return counts;
}

/**
 * Every unread message for the site header's badge. An applicant: staff messages across their own
 * applications (one counts row and one read mark per application they own). A staff member: every
 * applicant message (row_counts) minus the applicant messages their read marks have seen (their
 * totals row, kept by a trigger): two rows, however many conversations the lender holds.
 */
export async function totalUnread(viewer: ConversationViewer, db: DbOrTx = getDb()): Promise<number> {
  // Every signed-in page asks (the header's badge): prepared once per database, built per call in a transaction.
  const shared = db instanceof PgTransaction ? null : (db as Db);
  if (viewer.side === "applicant") {
    const query = shared ? preparedOn(shared, "unread_applicant_total", applicantUnreadQuery) : applicantUnreadQuery(db);
    const [row] = await query.execute({ viewerId: viewer.id });
    return Number(row?.n ?? 0);
  }
  const query = shared ? preparedOn(shared, "unread_staff_total", staffUnreadQuery) : staffUnreadQuery(db);
  const [row] = await query.execute({ viewerId: viewer.id });
  return Number(row?.n ?? 0);
}

function applicantUnreadQuery(db: DbOrTx) {
  const viewer = { id: sql.placeholder("viewerId"), side: "applicant" as const };
  return db
    .select({ n: sql<string | null>`sum(${unreadOf(viewer)})` })
    .from(conversationCounts)
    .leftJoin(conversationReads, readMarkOf(viewer))
    .where(sql`${conversationCounts.applicationId} in (${applicationIdsOfSql(viewer.id)})`)
    .prepare("unread_applicant_total");
}

/** Every applicant message, less those this staff member has seen (two primary-key reads, decision 0048). */
function staffUnreadQuery(db: DbOrTx) {
  const readerId = sql.placeholder("viewerId");
  return db
    .select({
      n: sql<string>`greatest(${keptCountSql(APPLICANT_MESSAGES_KEY)}
        - coalesce((select ${conversationReaderTotals.seenApplicant} from ${conversationReaderTotals} where ${conversationReaderTotals.readerId} = ${readerId}), 0), 0)`,
    })
    .from(sql`(select 1) as one`)
    .prepare("unread_staff_total");
}

/** row_counts' key for all applicant messages (drizzle/0013). */
const APPLICANT_MESSAGES_KEY = "application_messages:applicant";

/** Joins each conversation's counts to the viewer's read mark on it (none: never read). */
function readMarkOf(viewer: ViewerOrPlaceholder) {
  return and(eq(conversationReads.applicationId, conversationCounts.applicationId), eq(conversationReads.readerId, viewer.id));
}

// ---------------------------------------------------------------------------------------------
// Changes: send a message, mark the conversation read.
// ---------------------------------------------------------------------------------------------

export const MESSAGE_REFUSALS = { applicationNotFound: "This application could not be found." } as const;

/** The applicant writes on their own application; staff on any. `actor` is for the staff audit row. */
export type MessageWriter = { id: string; side: ConversationSide; actor?: AuditActor };

/** The application as the writer may see it: the applicant's own only (anything else is not found). */
async function applicationFor(db: DbOrTx, applicationId: string, writer: { id: string; side: ConversationSide }) {
  const found = await applicationById(applicationId, db);
  const owner = found && (writer.side !== "applicant" || found.userId === writer.id) ? await personById(found.userId, db) : null;
  const app = found && owner ? { id: found.id, userId: found.userId, accountEmail: owner.email } : null;
  if (!app) throw new AppError("message", 404, MESSAGE_REFUSALS.applicationNotFound);
  return app;
}

/**
 * Moves this reader's mark to now and to the conversation's counts as this transaction sees them;
 * never backwards (a late request cannot un-read newer messages). A message committed after this
 * statement read the counts stays unread.
 */
async function markRead(db: DbOrTx, applicationId: string, readerId: string): Promise<void> {
  await db.execute(sql`
    insert into ${conversationReads} (application_id, reader_id, last_read_at, seen_applicant, seen_staff)
      select ${applicationId}::uuid, ${readerId}, now(), coalesce(c.applicant_messages, 0), coalesce(c.staff_messages, 0)
      from (select 1) as one left join ${conversationCounts} c on c.application_id = ${applicationId}::uuid
    on conflict (application_id, reader_id) do update set
      last_read_at = greatest(${conversationReads}.last_read_at, excluded.last_read_at),
      seen_applicant = greatest(${conversationReads}.seen_applicant, excluded.seen_applicant),
      seen_staff = greatest(${conversationReads}.seen_staff, excluded.seen_staff)`);
}

/**
 * A read mark as of an instant, with the counts of what was written up to it: for seeding demo data
 * and tests, which place marks in the past (the app itself marks with markRead, at now).
 */
export async function recordReadMarkAsOf(db: DbOrTx, mark: { applicationId: string; readerId: string; at: Date | SQL }): Promise<void> {
  const at = mark.at instanceof Date ? sql`${mark.at.toISOString()}::timestamptz` : sql`(${mark.at})`;
  await db.execute(sql`
    insert into ${conversationReads} (application_id, reader_id, last_read_at, seen_applicant, seen_staff)
      select ${mark.applicationId}::uuid, ${mark.readerId}, ${at},
        count(*) filter (where m.author_side = 'applicant'), count(*) filter (where m.author_side = 'staff')
      from ${applicationMessages} m where m.application_id = ${mark.applicationId}::uuid and m.created_at <= ${at}
    on conflict (application_id, reader_id) do update set
      last_read_at = excluded.last_read_at, seen_applicant = excluded.seen_applicant, seen_staff = excluded.seen_staff`);
}

/**
 * Claims this hour's "You have a new message" e-mail to one side of one conversation: one conditional
 * upsert, so of any number of messages at once exactly one gets a row back (and sends the e-mail);
 * the others find last_sent_at within the hour and send nothing.
 */
async function claimNotice(db: DbOrTx, applicationId: string, recipientSide: ConversationSide): Promise<boolean> {
  const rows = await db
    .insert(conversationNotices)
    .values({ applicationId, recipientSide, lastSentAt: sql`now()` })
    .onConflictDoUpdate({
      target: [conversationNotices.applicationId, conversationNotices.recipientSide],
      set: { lastSentAt: sql`now()` },
      setWhere: sql`${conversationNotices.lastSentAt} < now() - interval '1 hour'`,
    })
    .returning({ at: conversationNotices.lastSentAt });
  return rows.length > 0;
}

/**
 * Send a message. Allowed while the application is open and after a decision (an approved applicant
 * still talks to the lender about closing; a denied one may ask about the notice): docs/decisions/0027.
 * One transaction: the message, its timeline event (a neutral line, never the text; the event also
 * refreshes the other side's open page), the writer's read mark, the other side's e-mail when this
 * hour's is not already sent, and for staff the audit row. The body was validated by sendMessageSchema.
 */
export async function sendMessage(
  applicationId: string, body: string, { actor: writer, request: info }: Caller<MessageWriter>, db: Db = getDb(),
): Promise<{ id: string; emailed: boolean }> {
  return db.transaction(async (tx) => {
    const app = await applicationFor(tx, applicationId, writer);
    const [message] = await tx
      .insert(applicationMessages)
      .values({ applicationId, userId: app.userId, authorId: writer.id, authorSide: writer.side, body })
      .returning({ id: applicationMessages.id });
    if (!message) throw new Error("sendMessage: insert returned no row");
    await recordEvent(tx, {
      applicationId,
      ownerId: app.userId,
      kind: "message",
      actorId: writer.id,
      actorSide: writer.side,
      // The text lives in the Messages panel only: the timeline and its notifications never repeat it.
      summary: null,
    });
    await markRead(tx, applicationId, writer.id);
    if (writer.side === "staff") {
      if (!writer.actor) throw new Error("sendMessage: a staff message needs the audit actor");
      await writeAudit(tx, {
        actor: writer.actor,
        action: "message.send",
        table: "application_messages",
        recordId: applicationId,
        // The length, never the text: the audit log is not a second copy of the conversation.
        details: { messageId: message.id, length: body.length },
        request: info,
      });
    }
    const recipientSide: ConversationSide = writer.side === "staff" ? "applicant" : "staff";
    const config = getConfig();
    const to = recipientSide === "applicant" ? app.accountEmail : config.lenderNotifyEmail;
    let emailed = false;
    if (await claimNotice(tx, applicationId, recipientSide)) {
      await enqueueEmail(tx, { to, ...newMessageEmail({ applicationId, recipientSide, baseUrl: config.publicUrl }) });
      emailed = true;
    }
    return { id: message.id, emailed };
  });
}

/**
 * The reader has seen the conversation (the panel posts this while it is visible): their read mark moves
 * to now. The applicant on their own application only; staff on any. Not a change of the application,
 * so no timeline event (it would refresh the other side for nothing).
 */
export async function markConversationRead(applicationId: string, reader: { id: string; side: ConversationSide }, db: Db = getDb()): Promise<void> {
  await db.transaction(async (tx) => {
    await applicationFor(tx, applicationId, reader);
    await markRead(tx, applicationId, reader.id);
  });
}
