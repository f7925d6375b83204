import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import { createHmac, randomInt, timingSafeEqual } from "node:crypto";
import { getConfig } from "~/server/platform/config.server";
import type { Db } from "~/server/platform/db/client.server";
import { emailVerificationCodes } from "~/server/platform/db/schema.server";

/**
 * Sign-up codes: 6 digits, stored as an HMAC (never the code itself), valid 10 minutes, single use,
 * at most 5 wrong tries per code. The e-mail is always lowercased.
 */

export const CODE_TTL_MS = 10 * 60 * 1000;
export const MAX_WRONG_TRIES = 5;

export function generateCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, "0");
}

export function hashCode(email: string, code: string): string {
  return createHmac("sha256", getConfig().appSecret).update(`sign-up:${email}:${code}`).digest("hex");
}

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** Stores a new code for the e-mail (inside the caller's transaction, with its e-mail). */
export async function storeCode(tx: Tx | Db, email: string, code: string): Promise<void> {
  await tx.insert(emailVerificationCodes).values({
    email,
    codeHash: hashCode(email, code),
    purpose: "sign-up",
    expiresAt: new Date(Date.now() + CODE_TTL_MS),
  });
}

/**
 * Checks a code against the newest live code for the e-mail and, when it matches, marks it verified
 * and consumed in the same statement that reads it (row lock), so two requests can never both use it.
 * Returns true only for a match.
 */
export async function verifyAndConsumeCode(db: Db, email: string, code: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(emailVerificationCodes)
      .where(
        and(
          eq(emailVerificationCodes.email, email),
          eq(emailVerificationCodes.purpose, "sign-up"),
          isNull(emailVerificationCodes.consumedAt),
          eq(emailVerificationCodes.verified, false),
          gt(emailVerificationCodes.expiresAt, sql`now()`),
        ),
      )
      .orderBy(desc(emailVerificationCodes.createdAt))
      .limit(1)
      .for("update");
    if (!row || row.attempts >= MAX_WRONG_TRIES) return false;
    const expected = Buffer.from(row.codeHash, "hex");
    const given = Buffer.from(hashCode(email, code), "hex");
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      await tx
        .update(emailVerificationCodes)
        .set({ attempts: sql`${emailVerificationCodes.attempts} + 1` })
        .where(eq(emailVerificationCodes.id, row.id));
      return false;
    }
    await tx
      .update(emailVerificationCodes)
      .set({ verified: true, verifiedAt: sql`now()`, consumedAt: sql`now()` })
      .where(eq(emailVerificationCodes.id, row.id));
    return true;
  });
}
