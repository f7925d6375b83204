import { and, asc, count, eq, gt, inArray, isNull, ne, or } from "drizzle-orm";
import type { ConversationSide } from "~/domain/enums";
import type { ConversationView } from "~/domain/views/application-page";
import { getDb, type DbOrTx } from "~/server/db/client.server";
import { applicationMessages, conversationReads, profiles } from "~/server/db/schema.server";
import { LENDER_SIDE_NAME } from "./timeline.server";

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
    .leftJoin(
      conversationReads,
      and(eq(conversationReads.applicationId, applicationMessages.applicationId), eq(conversationReads.readerId, viewer.id)),
    )
    .where(
      and(
        inArray(applicationMessages.applicationId, [...applicationIds]),
        ne(applicationMessages.authorSide, viewer.side),
        or(isNull(conversationReads.lastReadAt), gt(applicationMessages.createdAt, conversationReads.lastReadAt)),
      ),
    )
    .groupBy(applicationMessages.applicationId);
  for (const row of rows) counts.set(row.applicationId, row.n);
  return counts;
}
