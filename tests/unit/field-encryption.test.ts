import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decryptField, encryptField, FieldDecryptionError, isEncrypted, needsReencryption } from "~/server/platform/crypto/field-encryption.server";

const k1 = { version: 1, key: randomBytes(32) };
const k2 = { version: 2, key: randomBytes(32) };

describe("field encryption", () => {
  it("round-trips, and never stores the plaintext or the same ciphertext twice", () => {
    const a = encryptField("123-45-6789", "loan_applications.ssn", [k1]);
    const b = encryptField("123-45-6789", "loan_applications.ssn", [k1]);
    expect(isEncrypted(a)).toBe(true);
    expect(a).not.toContain("6789");
    expect(a).not.toBe(b);
    expect(decryptField(a, "loan_applications.ssn", [k1])).toBe("123-45-6789");
  });

  it("refuses a value moved to another column, an altered value and an unknown key", () => {
    const a = encryptField("021000021", "bank_accounts.routing_number", [k1]);
    expect(() => decryptField(a, "bank_accounts.account_number", [k1])).toThrow(FieldDecryptionError);
    const raw = Buffer.from(a.split(":")[2]!, "base64");
    raw[raw.length - 1]! ^= 1;
    expect(() => decryptField(`enc:v1:${raw.toString("base64")}`, "bank_accounts.routing_number", [k1])).toThrow(FieldDecryptionError);
    expect(() => decryptField(a, "bank_accounts.routing_number", [k2])).toThrow(/No key v1/);
    expect(() => decryptField("123456789", "x", [k1])).toThrow(FieldDecryptionError);
  });

  it("rotates: new values use the newest key, old ones still decrypt", () => {
    const old = encryptField("1234567890", "bank_accounts.account_number", [k1]);
    const keys = [k2, k1];
    expect(decryptField(old, "bank_accounts.account_number", keys)).toBe("1234567890");
    expect(needsReencryption(old, keys)).toBe(true);
    const fresh = encryptField("1234567890", "bank_accounts.account_number", keys);
    expect(fresh.startsWith("enc:v2:")).toBe(true);
    expect(needsReencryption(fresh, keys)).toBe(false);
  });
});
