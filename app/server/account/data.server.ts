import { desc, eq } from "drizzle-orm";
import type { AccountDataView } from "~/domain/views/account";
import { getDb, type DbOrTx } from "~/server/db/client.server";
import { dataExports } from "~/server/db/schema.server";

/** The account page's data section: the newest Download My Data request (a ready link past its day is expired). */
export async function loadAccountData(userId: string, db: DbOrTx = getDb(), now: Date = new Date()): Promise<AccountDataView> {
  const [latest] = await db
    .select({ status: dataExports.status, requestedAt: dataExports.requestedAt, expiresAt: dataExports.expiresAt })
    .from(dataExports)
    .where(eq(dataExports.userId, userId))
    .orderBy(desc(dataExports.requestedAt))
    .limit(1);
  if (!latest) return { latestExport: null };
  const expired = latest.status === "ready" && latest.expiresAt !== null && latest.expiresAt <= now;
  return {
    latestExport: { status: expired ? "expired" : latest.status, requestedAt: latest.requestedAt.toISOString(), expiresAt: latest.expiresAt?.toISOString() ?? null },
  };
}
