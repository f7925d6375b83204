import { and, eq, getTableColumns, isNull, or, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn, PgTable, PgUpdateSetSource } from "drizzle-orm/pg-core";
import type { EncryptionKey } from "~/server/platform/config.server";
import { decryptField, encryptField, isEncrypted, needsReencryption } from "~/server/platform/crypto/field-encryption.server";
import type { Db, DbOrTx, Tx } from "~/server/platform/db/client.server";

/**
 * The steps 'Encrypt Existing Bank Data' (staff/encryption-migration) takes on every sealed column,
 * whichever module owns it: which rows need work, what a value becomes, how a batch is read and how
 * a conditional write is counted. Each owner applies them to its own tables.
 */

/** The filters of the rows needing work under the current key `version`. */
export function migrationFilters(version: number): { notCurrent: (column: AnyPgColumn) => SQL; stale: (column: AnyPgColumn) => SQL | undefined } {
  // Ciphertext under the current key; anything else needs work. Mirrors isEncrypted()'s pattern.
  const currentPattern = `^enc:v${version}:[A-Za-z0-9+/=]+$`;
  return {
    notCurrent: (column) => sql`${column} !~ ${currentPattern}`,
    // A blind index missing or under another key (its form: v<version>:<token>).
    stale: (column) => or(isNull(column), sql`${column} not like ${`v${version}:%`}`),
  };
}

/** What one migration pass needs: the keys (the current one first), the batch size and the filters. */
export type MigrationRun = { keys: EncryptionKey[]; batchSize: number } & ReturnType<typeof migrationFilters>;

/** Plain text → ciphertext under the current key; old ciphertext → re-encrypted; current → null. */
export function migrateValue(value: string, purpose: string, keys: EncryptionKey[]): { stored: string; plain: string } | "current" | "failed" {
  if (!isEncrypted(value)) return { stored: encryptField(value, purpose, keys), plain: value };
  if (!needsReencryption(value, keys)) return "current";
  try {
    const plain = decryptField(value, purpose, keys);
    return { stored: encryptField(plain, purpose, keys), plain };
  } catch {
    return "failed";
  }
}

/** The plain value of a stored one, for its blind index: from the migration when it ran, else decrypted (null when it does not decrypt). */
export function plainFor(value: string, next: Migrated, purpose: string, keys: EncryptionKey[]): string | null {
  if (typeof next === "object") return next.plain;
  if (next === "failed") return null;
  try {
    return decryptField(value, purpose, keys);
  } catch {
    return null;
  }
}

/** The trailing `n` digits of a number as typed, or null when it has fewer digits. */
export function lastDigits(plain: string, n: number): string | null {
  const digits = plain.replace(/\D/g, "");
  return digits.length >= n ? digits.slice(-n) : null;
}

export type Tally = { encrypted: number; failed: number };
export type Migrated = ReturnType<typeof migrateValue>;

/**
 * Stores one migrated value with `write` (an UPDATE conditional on the value read, returning the rows
 * it changed) and counts the outcome. A row changed meanwhile (another run got there first) is left to
 * that run and counted as skipped.
 */
export async function storeMigrated(tally: Tally, next: Migrated, write: (stored: string) => Promise<unknown[]>): Promise<void> {
  if (next === "failed") {
    tally.failed++;
    return;
  }
  if (next === "current") return;
  if ((await write(next.stored)).length > 0) tally.encrypted++;
}

/** Reads rows in id order, batch after batch (each read after the last id seen), handling each batch in its own transaction. */
export async function forEachBatch<Row extends { id: string }>(
  db: Db,
  read: (afterId: string | null) => Promise<Row[]>,
  handle: (tx: Tx, rows: Row[]) => Promise<void>,
): Promise<void> {
  let lastId: string | null = null;
  for (;;) {
    const rows = await read(lastId);
    if (rows.length === 0) return;
    lastId = rows.at(-1)!.id;
    await db.transaction((tx) => handle(tx, rows));
  }
}


/**
 * The write storeMigrated takes for one sealed column: the stored value replaces the value read in
 * `column`, on the row whose `key` is `keyValue` and only while it still holds that value (another run
 * may have been first); it returns the rows it changed.
 */
export function replaceReadValue<T extends PgTable>(
  db: DbOrTx,
  table: T,
  where: { key: AnyPgColumn; keyValue: string; column: keyof T["$inferInsert"] & string; read: string },
): (stored: string) => Promise<unknown[]> {
  const column = getTableColumns(table)[where.column] as AnyPgColumn;
  return (stored) =>
    db
      .update(table)
      .set({ [where.column]: stored } as PgUpdateSetSource<T>)
      .where(and(eq(where.key, where.keyValue), eq(column, where.read)))
      .returning({ key: where.key });
}
