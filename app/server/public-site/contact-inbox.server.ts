import type { InboxMessage } from "~/domain/admin-lists";
import { and, desc, eq, inArray, ne } from "drizzle-orm";
import { z } from "zod";
import type { ContactMessageStatus } from "~/domain/enums";
import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";
import { getDb, type Db } from "~/server/platform/db/client.server";
import { contactMessages } from "~/server/platform/db/schema.server";
import type { Page } from "./moderation.server";
import { keysetPage, withIsoCreatedAt } from "~/server/platform/db/paging.server";
import type { PageCursors, PageRequest } from "~/domain/paging";
import { keptCounts } from "~/server/platform/db/row-counts.server";

/**
 * The contact-messages inbox (/admin/messages). Messages carry a visitor's name, e-mail, phone and
 * text: client data, so every page an admin reads writes a 'contact.list' audit row in the same
 * transaction as the read (no row, no data). Admins mark messages read or archived.
 */

export const MESSAGES_PAGE_SIZE = 20;

/** inbox: new and read messages; archived: archived ones. */
export const MESSAGE_VIEWS = ["inbox", "archived"] as const;
export type MessageView = (typeof MESSAGE_VIEWS)[number];

export function parseMessageView(value: string | null | undefined): MessageView {
  return value === "archived" ? "archived" : "inbox";
}

export const messageStatusSchema = z.object({
  id: z.uuid("Unknown message."),
  status: z.enum(["read", "archived"], "Choose read or archived."),
});

export type InboxPage = Page<InboxMessage> & { view: MessageView; unread: number; cursors: PageCursors };

const inView = (view: MessageView) => (view === "archived" ? eq(contactMessages.status, "archived") : ne(contactMessages.status, "archived"));

/** Contact-form messages still New (the Contact Inbox's badge): one row kept by a trigger (drizzle/0012). */
export async function newContactMessages(db: Db = getDb()): Promise<number> {
  return (await keptCounts(db, ["contact_messages:new"] as const))["contact_messages:new"];
}

/** One page of messages, newest first, and its 'contact.list' audit row (written with the read). */
export async function listContactMessages(
  { view = "inbox", page = 1, ...cursor }: { view?: MessageView } & Partial<PageRequest>, { actor, request }: Caller, db: Db = getDb(),
): Promise<InboxPage> {
  return db.transaction(async (tx) => {
    // Kept by triggers (drizzle/0012): three rows, however many messages there are.
    const counts = await keptCounts(tx, ["contact_messages:new", "contact_messages:read", "contact_messages:archived"] as const);
    const unread = counts["contact_messages:new"];
    const total = view === "archived" ? counts["contact_messages:archived"] : counts["contact_messages:new"] + counts["contact_messages:read"];
    // The page's ids from the (created_at, id, status) index alone, by keyset (decision 0050).
    const shown = await keysetPage(
      tx,
      {
        scope: `messages:${view}`,
        table: contactMessages,
        id: contactMessages.id,
        keys: [
          { column: contactMessages.createdAt, order: "desc", type: "timestamptz" },
          { column: contactMessages.id, order: "desc", type: "uuid" },
        ],
        where: inView(view),
      },
      { page, ...cursor },
      total,
      MESSAGES_PAGE_SIZE,
    );
    const rows =
      shown.ids.length === 0
        ? []
        : await tx
            .select({
              id: contactMessages.id,
              name: contactMessages.name,
              email: contactMessages.email,
              phone: contactMessages.phone,
              subject: contactMessages.subject,
              message: contactMessages.message,
              status: contactMessages.status,
              createdAt: contactMessages.createdAt,
            })
            .from(contactMessages)
            .where(inArray(contactMessages.id, shown.ids))
            .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id));
    await writeAudit(tx, {
      actor,
      action: "contact.list",
      table: "contact_messages",
      details: { view, page: shown.page, count: rows.length },
      request,
    });
    return {
      items: withIsoCreatedAt(rows),
      page: shown.page,
      pageCount: shown.pageCount,
      cursors: shown.cursors,
      total,
      pageSize: MESSAGES_PAGE_SIZE,
      view,
      unread,
    };
  });
}

export type MessageStatusResult = { ok: true; id: string; status: "read" | "archived" } | { ok: false; message: string };

/**
 * Marks a message read or archived (validated { id, status }). Moving an archived message back to the
 * inbox marks it read. Unknown ids are refused.
 */
export async function setContactMessageStatus(input: unknown, { actor, request }: Caller, db: Db = getDb()): Promise<MessageStatusResult> {
  const parsed = messageStatusSchema.safeParse(input);
  if (!parsed.success) return { ok: false, message: parsed.error.issues[0]?.message ?? "Invalid request." };
  const { id, status } = parsed.data;
  const from: ContactMessageStatus[] = status === "read" ? ["new", "archived"] : ["new", "read"];
  const rows = await db.transaction(async (tx) => {
    const updated = await tx
      .update(contactMessages)
      .set({ status })
      .where(and(eq(contactMessages.id, id), inArray(contactMessages.status, from)))
      .returning({ id: contactMessages.id });
    if (updated.length > 0) {
      await writeAudit(tx, { actor, action: "contact.update", table: "contact_messages", recordId: id, details: { status }, request });
    }
    return updated;
  });
  if (rows.length === 0) {
    const [exists] = await db.select({ id: contactMessages.id }).from(contactMessages).where(eq(contactMessages.id, id)).limit(1);
    if (!exists) return { ok: false, message: "This message no longer exists." };
  }
  return { ok: true, id, status };
}
