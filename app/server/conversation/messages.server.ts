import { and, asc, count, eq, gt, inArray, isNull, ne, or, sql } from "drizzle-orm";
import type { ConversationSide } from "~/domain/conversation-enums";
import type { ConversationView } from "~/domain/views/application-page";
import { writeAudit, type AuditActor, type RequestInfo } from "~/server/audit.server";
import { getConfig } from "~/server/config.server";
import { getDb, type Db, type DbOrTx } from "~/server/db/client.server";
import { applicationMessages, conversationNotices, conversationReads, loanApplications, profiles, user as userTable } from "~/server/db/schema.server";
import { enqueueEmail } from "~/server/mail/outbox.server";
import { newMessageEmail } from "~/server/mail/message-emails.server";
import { LENDER_SIDE_NAME, recordEvent } from "./timeline.server";

/**
 * The Messages panel (issue 19): the conversation between the applicant and staff about one
 * application. Plain text only. Reads here; sending, read marks and the e-mail notice are beside them.
 * The caller has already checked that the viewer may see this application.
 */

export type ConversationViewer = { id: string; side: ConversationSide };

/** When this reader last read the conversation (null: never). */
async function lastReadAt(applicationId: string, readerId: string, db: DbOrTx): Promise<Date | null> {
  const [row] = await db
    .select({ at: conversationReads.lastReadAt })
    .from(conversationReads)
    .where(and(eq(conversationReads.applicationId, applicationId), eq(conversationReads.readerId, readerId)))
    .limit(1);
  return row?.at ?? null;
}

/** Messages from the other side written after the reader last read the conversation. */
export async function unreadCount(applicationId: string, viewer: ConversationViewer, db: DbOrTx = getDb()): Promise<number> {
  const since = await lastReadAt(applicationId, viewer.id, db);
  const [row] = await db
    .select({ n: count() })
    .from(applicationMessages)
    .where(
      and(
        eq(applicationMessages.applicationId, applicationId),
        ne(applicationMessages.authorSide, viewer.side),
        since ? gt(applicationMessages.createdAt, since) : undefined,
      ),
    );
  return row?.n ?? 0;
}

export async function loadConversation(applicationId: string, viewer: ConversationViewer, db: DbOrTx = getDb()): Promise<ConversationView> {
  const rows = await db
    .select({
      id: applicationMessages.id,
      side: applicationMessages.authorSide,
      authorId: applicationMessages.authorId,
      authorName: profiles.fullName,
      body: applicationMessages.body,
      createdAt: applicationMessages.createdAt,
    })
    .from(applicationMessages)
    .leftJoin(profiles, eq(profiles.id, applicationMessages.authorId))
    .where(eq(applicationMessages.applicationId, applicationId))
    .orderBy(asc(applicationMessages.createdAt), asc(applicationMessages.id));
  const unread = await unreadCount(applicationId, viewer, db);
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
            : r.authorName?.trim() || (r.side === "applicant" ? "Applicant" : "Staff");
      return { id: r.id, side: r.side, author, body: r.body, at: r.createdAt.toISOString(), mine };
    }),
  };
}

/**
 * Unread counts for many applications at once (the dashboard cards, a page of the admin list): one
 * query. Applications without unread messages are absent from the map.
 */
export async function unreadCounts(applicationIds: readonly string[], viewer: ConversationViewer, db: DbOrTx = getDb()): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (applicationIds.length === 0) return counts;
  const rows = await db
    .select({ applicationId: applicationMessages.applicationId, n: count() })
    .from(applicationMessages)
    .leftJoin(conversationReads, readMarkOf(viewer))
    .where(and(inArray(applicationMessages.applicationId, [...applicationIds]), unreadBy(viewer)))
    .groupBy(applicationMessages.applicationId);
  for (const row of rows) counts.set(row.applicationId, row.n);
  return counts;
}

/**
 * Every unread message for the site header's badge: an applicant's unread messages from staff across
 * their own applications; a staff member's unread applicant messages across all applications (each
 * staff member has their own read marks). One query.
 */
export async function totalUnread(viewer: ConversationViewer, db: DbOrTx = getDb()): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(applicationMessages)
    .leftJoin(conversationReads, readMarkOf(viewer))
    .where(and(viewer.side === "applicant" ? eq(applicationMessages.userId, viewer.id) : undefined, unreadBy(viewer)));
  return row?.n ?? 0;
}

/** Joins each message to the viewer's read mark on its conversation (none: never read). */
function readMarkOf(viewer: ConversationViewer) {
  return and(eq(conversationReads.applicationId, applicationMessages.applicationId), eq(conversationReads.readerId, viewer.id));
}

/** A message from the other side written after the viewer's read mark (with readMarkOf joined). */
function unreadBy(viewer: ConversationViewer) {
  return and(ne(applicationMessages.authorSide, viewer.side), or(isNull(conversationReads.lastReadAt), gt(applicationMessages.createdAt, conversationReads.lastReadAt)));
}

// ---------------------------------------------------------------------------------------------
// Changes: send a message, mark the conversation read.
// ---------------------------------------------------------------------------------------------

/** A refusal the routes turn into an answer (404: no such application, or not the writer's). */
export class MessageRefused extends Error {
  constructor(
    readonly status: 404,
    message: string,
  ) {
    super(message);
    this.name = "MessageRefused";
  }
}

export const MESSAGE_REFUSALS = { applicationNotFound: "This application could not be found." } as const;

/** The applicant writes on their own application; staff on any. `actor` is for the staff audit row. */
export type MessageWriter = { id: string; side: ConversationSide; actor?: AuditActor };

/** The application as the writer may see it: the applicant's own only (anything else is not found). */
async function applicationFor(db: DbOrTx, applicationId: string, writer: { id: string; side: ConversationSide }) {
  const [app] = await db
    .select({ id: loanApplications.id, userId: loanApplications.userId, accountEmail: userTable.email })
    .from(loanApplications)
    .innerJoin(userTable, eq(userTable.id, loanApplications.userId))
    .where(
      writer.side === "applicant"
        ? and(eq(loanApplications.id, applicationId), eq(loanApplications.userId, writer.id))
        : eq(loanApplications.id, applicationId),
    )
    .limit(1);
  if (!app) throw new MessageRefused(404, MESSAGE_REFUSALS.applicationNotFound);
  return app;
}

/** Moves this reader's mark to now; never backwards (a late request cannot un-read newer messages). */
async function markRead(db: DbOrTx, applicationId: string, readerId: string): Promise<void> {
  await db
    .insert(conversationReads)
    .values({ applicationId, readerId, lastReadAt: sql`now()` })
    .onConflictDoUpdate({
      target: [conversationReads.applicationId, conversationReads.readerId],
      set: { lastReadAt: sql`greatest(${conversationReads.lastReadAt}, excluded.last_read_at)` },
    });
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
  applicationId: string,
  body: string,
  writer: MessageWriter,
  info: RequestInfo = {},
  db: Db = getDb(),
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
