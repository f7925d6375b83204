import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  BLIND_INDEX_PURPOSES,
  blindIndexKey,
  lastFourDigits,
  lastFourSearchTokens,
  lastFourToken,
  needsReindex,
} from "~/server/platform/crypto/blind-index.server";
import type { EncryptionKey } from "~/server/platform/config.server";

/** The keyed blind index of last-4 digits (issue 24): stable, keyed, per purpose, rotating with ENCRYPTION_KEY. */

const v1: EncryptionKey = { version: 1, key: Buffer.alloc(32, 1) };
const v2: EncryptionKey = { version: 2, key: Buffer.alloc(32, 2) };

describe("blind index", () => {
  it("gives the same token for the same last 4 under the same key, whatever the formatting", () => {
    const a = lastFourToken("123-45-6789", BLIND_INDEX_PURPOSES.ssnLast4, [v1]);
    expect(a).toMatch(/^v1:[A-Za-z0-9_-]{22}$/);
    expect(lastFourToken("987656789", BLIND_INDEX_PURPOSES.ssnLast4, [v1])).toBe(a);
    expect(lastFourToken("6789", BLIND_INDEX_PURPOSES.ssnLast4, [v1])).toBe(a);
    expect(lastFourToken("6788", BLIND_INDEX_PURPOSES.ssnLast4, [v1])).not.toBe(a);
  });

  it("gives different tokens for different purposes and different keys", () => {
    const ssn = lastFourToken("6789", BLIND_INDEX_PURPOSES.ssnLast4, [v1]);
    const account = lastFourToken("6789", BLIND_INDEX_PURPOSES.accountLast4, [v1]);
    expect(account).not.toBe(ssn);
    const other = lastFourToken("6789", BLIND_INDEX_PURPOSES.ssnLast4, [{ version: 1, key: randomBytes(32) }]);
    expect(other).not.toBe(ssn);
  });

  it("is not a plain hash, and its HMAC key is derived (never the AES key itself)", async () => {
    const { createHash } = await import("node:crypto");
    const token = lastFourToken("6789", BLIND_INDEX_PURPOSES.ssnLast4, [v1])!;
    const plain = createHash("sha256").update(`${BLIND_INDEX_PURPOSES.ssnLast4}\0${"6789"}`).digest().subarray(0, 16).toString("base64url");
    expect(token.slice(3)).not.toBe(plain);
    expect(createHash("sha256").update("6789").digest().subarray(0, 16).toString("base64url")).not.toBe(token.slice(3));
    const derived = blindIndexKey(v1);
    expect(derived).toHaveLength(32);
    expect(derived.equals(v1.key)).toBe(false);
    expect(blindIndexKey(v2).equals(derived)).toBe(false);
  });

  it("after a rotation, stores under the new key and searches under every key (old rows still found)", () => {
    const before = lastFourToken("6789", BLIND_INDEX_PURPOSES.accountLast4, [v1])!;
    const after = lastFourToken("6789", BLIND_INDEX_PURPOSES.accountLast4, [v2, v1])!;
    expect(after.startsWith("v2:")).toBe(true);
    expect(after).not.toBe(before);
    const search = lastFourSearchTokens("6789", BLIND_INDEX_PURPOSES.accountLast4, [v2, v1]);
    expect(search).toEqual([after, before]);
    expect(needsReindex(before, [v2, v1])).toBe(true);
    expect(needsReindex(after, [v2, v1])).toBe(false);
    expect(needsReindex(null, [v2, v1])).toBe(true);
    expect(needsReindex("v2:junk", [v2, v1])).toBe(true);
  });

  it("has no token for fewer than 4 digits, and searches only 4 digits", () => {
    expect(lastFourDigits("12-3")).toBeNull();
    expect(lastFourToken("123", BLIND_INDEX_PURPOSES.ssnLast4, [v1])).toBeNull();
    expect(lastFourToken(null, BLIND_INDEX_PURPOSES.ssnLast4, [v1])).toBeNull();
    expect(lastFourSearchTokens("12345", BLIND_INDEX_PURPOSES.ssnLast4, [v1])).toEqual([]);
    expect(lastFourSearchTokens("12a4", BLIND_INDEX_PURPOSES.ssnLast4, [v1])).toEqual([]);
    expect(() => lastFourToken("6789", BLIND_INDEX_PURPOSES.ssnLast4, [])).toThrow();
  });
});
