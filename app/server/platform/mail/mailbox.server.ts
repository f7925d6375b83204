import { desc, eq } from "drizzle-orm";
import type { Db } from "~/server/platform/db/client.server";
import { emailOutbox, type EmailOutboxMessage } from "~/server/platform/db/schema.server";

/**
 * Queries behind /dev/mailbox (development only: the route refuses in production). Shows what the
 * outbox holds, so a developer without a mail server can read a sign-up code.
 */

export type MailboxEntry = Pick<
  EmailOutboxMessage,
  "id" | "toAddress" | "subject" | "template" | "status" | "attempts" | "createdAt" | "sentAt"
>;

export type MailboxMessage = MailboxEntry & Pick<EmailOutboxMessage, "textBody" | "htmlBody" | "lastError">;

/** What the list shows of each message; the message view adds its bodies. */
const ENTRY_COLUMNS = {
  id: emailOutbox.id,
  toAddress: emailOutbox.toAddress,
  subject: emailOutbox.subject,
  template: emailOutbox.template,
  status: emailOutbox.status,
  attempts: emailOutbox.attempts,
  createdAt: emailOutbox.createdAt,
  sentAt: emailOutbox.sentAt,
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The newest messages first (default 50). */
export async function listMailbox(db: Db, limit = 50): Promise<MailboxEntry[]> {
  return db
    .select(ENTRY_COLUMNS)
    .from(emailOutbox)
    .orderBy(desc(emailOutbox.createdAt), desc(emailOutbox.id))
    .limit(Math.max(1, Math.min(limit, 200)));
}

/** One message with its bodies, or null (also for an id that is not a UUID). */
export async function getMailboxMessage(db: Db, id: string): Promise<MailboxMessage | null> {
  if (!UUID.test(id)) return null;
  const [row] = await db
    .select({
      ...ENTRY_COLUMNS,
      textBody: emailOutbox.textBody,
      htmlBody: emailOutbox.htmlBody,
      lastError: emailOutbox.lastError,
    })
    .from(emailOutbox)
    .where(eq(emailOutbox.id, id))
    .limit(1);
  return row ?? null;
}
