import { migrateValue, replaceReadValue, storeMigrated, type MigrationRun, type Tally } from "~/server/platform/crypto/value-migration.server";
import { countRows } from "~/server/platform/db/paging.server";
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
    const write = replaceReadValue(db, adminMfa, { key: adminMfa.userId, keyValue: row.userId, column: "secretEncrypted", read: row.secret });
    await storeMigrated(mfa, migrateValue(row.secret, MFA_SECRET_PURPOSE, keys), write);
  }
}

export async function mfaSecretCount(db: Db): Promise<number> {
  return countRows(db, adminMfa);
}
