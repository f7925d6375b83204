import { setImmediate as nextTurn } from "node:timers/promises";
import { and, asc, eq, gt, or } from "drizzle-orm";
import { getDb, type Db } from "~/server/platform/db/client.server";
import { applicationMessages } from "~/server/platform/db/schema.server";

/** Messages are read this many at a time: a long conversation is many short statements, not one long one. */
const MESSAGE_PAGE = 100;

/**
 * Every message of the person's conversations, oldest first (Download My Data): a page at a time,
 * giving other work a turn between pages. Internal staff notes are not messages and never included.
 */
export async function messagesOfPerson(userId: string, db: Db = getDb()) {
  const messages: {
    id: string;
    applicationId: string;
    from: string;
    body: string;
    sentAt: Date;
  }[] = [];
  for (;;) {
    const last = messages.at(-1);
    const page = await db
      .select({
        id: applicationMessages.id,
        applicationId: applicationMessages.applicationId,
        from: applicationMessages.authorSide,
        body: applicationMessages.body,
        sentAt: applicationMessages.createdAt,
      })
      .from(applicationMessages)
      .where(and(eq(applicationMessages.userId, userId), last ? or(gt(applicationMessages.createdAt, last.sentAt), and(eq(applicationMessages.createdAt, last.sentAt), gt(applicationMessages.id, last.id))) : undefined))
      .orderBy(asc(applicationMessages.createdAt), asc(applicationMessages.id))
      .limit(MESSAGE_PAGE);
    messages.push(...page);
    if (page.length < MESSAGE_PAGE) break;
    await nextTurn();
  }
  return messages;
}
