import { and, eq, inArray } from "drizzle-orm";
import { getDb, type DbOrTx } from "~/server/platform/db/client.server";
import { notificationPreferences } from "~/server/platform/db/schema.server";

/**
 * Of these people, those who turned payment reminders off (Notification Preferences), in one query.
 * Reminders are on unless turned off: a person with no preferences row wants them.
 */
export async function remindersTurnedOff(userIds: readonly string[], db: DbOrTx = getDb()): Promise<Set<string>> {
  const wanted = [...new Set(userIds)];
  if (wanted.length === 0) return new Set();
  const rows = await db
    .select({ userId: notificationPreferences.userId })
    .from(notificationPreferences)
    .where(and(inArray(notificationPreferences.userId, wanted), eq(notificationPreferences.paymentReminders, false)));
  return new Set(rows.map((r) => r.userId));
}
