import { describe, expect, it } from "vitest";
import { base32Decode, base32Encode, matchTotp, otpauthUri, totpAt } from "~/server/accounts/totp.server";

// RFC 6238 appendix B test secret ("12345678901234567890") and its SHA-1 vectors (last 6 digits).
const RFC_SECRET = base32Encode(Buffer.from("12345678901234567890"));

describe("TOTP", () => {
  it("matches the RFC 6238 test vectors", () => {
    expect(totpAt(RFC_SECRET, Math.floor(59 / 30))).toBe("287082");
    expect(totpAt(RFC_SECRET, Math.floor(1111111109 / 30))).toBe("081804");
    expect(totpAt(RFC_SECRET, Math.floor(1234567890 / 30))).toBe("005924");
    expect(totpAt(RFC_SECRET, Math.floor(2000000000 / 30))).toBe("279037");
  });

  it("round-trips base32", () => {
    const bytes = Buffer.from([0, 1, 2, 250, 255, 17, 99]);
    expect(base32Decode(base32Encode(bytes)).equals(bytes)).toBe(true);
  });

  it("accepts the current step ±1, refuses older ones and replays", () => {
    const now = 1_700_000_000_000;
    const step = Math.floor(now / 30_000);
    expect(matchTotp(RFC_SECRET, totpAt(RFC_SECRET, step), null, now)).toBe(step);
    expect(matchTotp(RFC_SECRET, totpAt(RFC_SECRET, step - 1), null, now)).toBe(step - 1);
    expect(matchTotp(RFC_SECRET, totpAt(RFC_SECRET, step - 2), null, now)).toBeNull();
    expect(matchTotp(RFC_SECRET, totpAt(RFC_SECRET, step), step, now)).toBeNull();
    expect(matchTotp(RFC_SECRET, "12345", null, now)).toBeNull();
  });

  it("builds an otpauth URI for authenticator apps", () => {
    expect(otpauthUri("ABC", "ada@example.com")).toBe(
      "otpauth://totp/Private%20Loans%3Aada%40example.com?secret=ABC&issuer=Private+Loans&algorithm=SHA1&digits=6&period=30",
    );
  });
});
