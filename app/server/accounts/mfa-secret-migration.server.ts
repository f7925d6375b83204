import { and, count, eq } from "drizzle-orm";
import { migrateValue, storeMigrated, type MigrationRun, type Tally } from "~/server/platform/crypto/value-migration.server";
import type { Db } from "~/server/platform/db/client.server";
import { adminMfa } from "~/server/platform/db/schema.server";
import { MFA_SECRET_PURPOSE } from "./mfa.server";

/**
 * Staff second-factor secrets in 'Encrypt Existing Bank Data' (staff/encryption-migration runs the
 * whole): never plain text, but re-encrypted on key rotation like the rest.
 */
export async function migrateMfaSecrets(db: Db, run: MigrationRun, mfa: Tally): Promise<void> {
  const { keys, notCurrent } = run;
  const secrets = await db
    .select({ userId: adminMfa.userId, secret: adminMfa.secretEncrypted })
    .from(adminMfa)
    .where(notCurrent(adminMfa.secretEncrypted));
  for (const row of secrets) {
    await storeMigrated(mfa, migrateValue(row.secret, MFA_SECRET_PURPOSE, keys), (stored) =>
      db
        .update(adminMfa)
        .set({ secretEncrypted: stored })
        .where(and(eq(adminMfa.userId, row.userId), eq(adminMfa.secretEncrypted, row.secret)))
        .returning({ userId: adminMfa.userId }),
    );
  }
}

export async function mfaSecretCount(db: Db): Promise<number> {
  const [rows] = await db.select({ n: count() }).from(adminMfa);
  return Number(rows?.n ?? 0);
}
