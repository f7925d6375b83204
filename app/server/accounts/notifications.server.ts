import { eq, sql } from "drizzle-orm";
import type { AccountSettingsInput } from "~/domain/validation/account-settings";
import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";
import type { Db, DbOrTx } from "~/server/platform/db/client.server";
import { notificationPreferences } from "~/server/platform/db/schema.server";
import { clearServicingMarks } from "~/server/loans/index.server";

/**
 * Notification Preferences: the optional e-mails an applicant may turn off. Payment
 * reminders (on unless turned off) and news (off unless turned on). Transactional notices (codes,
 * decisions, offers, late notices, receipts, security notices) are not preferences: they always go.
 * No row means the defaults, so accounts older than the table need nothing written.
 */

export type NotificationChoices = { paymentReminders: boolean; productNews: boolean };

export const DEFAULT_NOTIFICATIONS: NotificationChoices = { paymentReminders: true, productNews: false };

export async function loadNotificationPreferences(db: DbOrTx, userId: string): Promise<NotificationChoices> {
  const [row] = await db
    .select({ paymentReminders: notificationPreferences.paymentReminders, productNews: notificationPreferences.productNews })
    .from(notificationPreferences)
    .where(eq(notificationPreferences.userId, userId))
    .limit(1);
  return row ?? { ...DEFAULT_NOTIFICATIONS };
}

/** One upsert (two tabs saving at once: the later write wins, as a person would expect) and its audit row. */
export async function updateNotificationPreferences(
  db: Db,
  input: AccountSettingsInput<"update-notifications">,
  { actor, request: info }: Caller,
): Promise<void> {
  const choices = { paymentReminders: input.paymentReminders, productNews: input.productNews };
  await db.transaction(async (tx) => {
    await tx
      .insert(notificationPreferences)
      .values({ userId: actor.id, ...choices })
      .onConflictDoUpdate({ target: notificationPreferences.userId, set: { ...choices, updatedAt: sql`now()` } });
    // Reminders turned back on may be due today: the servicing job looks at this borrower's loans again.
    if (input.paymentReminders) await clearServicingMarks(actor.id, tx);
    await writeAudit(tx, { actor, action: "account.notifications", table: "notification_preferences", recordId: actor.id, details: choices, request: info });
  });
}
