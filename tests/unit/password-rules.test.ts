import { describe, expect, it } from "vitest";
import {
  checkPasswordRules,
  describePasswordRules,
  PASSWORD_MESSAGES,
  PASSWORD_RULES_MESSAGE,
  PASSWORD_SPECIAL_CHARACTERS,
  passwordProblem,
  passwordSchema,
} from "~/domain/validation/password";

const CLASSES = "Password must include uppercase, lowercase, number, and special character";

function messages(value: unknown): string[] {
  const result = passwordSchema.safeParse(value);
  return result.success ? [] : result.error.issues.map((i) => i.message);
}

describe("passwordSchema", () => {
  it("accepts a password with every class and 8+ characters", () => {
    expect(messages("Abcdef1!")).toEqual([]);
    expect(messages('Passw0rd"')).toEqual([]);
    expect(passwordSchema.parse("Str0ng{pass}")).toBe("Str0ng{pass}");
  });

  it("uses the spec's message, once, for any missing character class", () => {
    expect(PASSWORD_RULES_MESSAGE).toBe(CLASSES);
    expect(messages("abcdefg1!")).toEqual([CLASSES]); // no uppercase
    expect(messages("ABCDEFG1!")).toEqual([CLASSES]); // no lowercase
    expect(messages("Abcdefgh!")).toEqual([CLASSES]); // no digit
    expect(messages("Abcdefg12")).toEqual([CLASSES]); // no special
    expect(messages("abcdefghij")).toEqual([CLASSES]); // several missing: still one message
  });

  it("counts only the spec's special characters", () => {
    for (const ch of PASSWORD_SPECIAL_CHARACTERS) expect(messages(`Abcdefg1${ch}`), ch).toEqual([]);
    expect(PASSWORD_SPECIAL_CHARACTERS).toBe('!@#$%^&*(),.?":{}|<>');
    for (const ch of ["-", "_", "+", "=", "~", "`", "[", "]", "/", "\\", "'", ";", " ", "é"]) {
      expect(messages(`Abcdefg1${ch}`), JSON.stringify(ch)).toEqual([CLASSES]);
    }
  });

  it("requires at least 8 characters, with a short message", () => {
    expect(messages("Ab1!xyz")).toEqual([PASSWORD_MESSAGES.tooShort]);
    expect(PASSWORD_MESSAGES.tooShort).toBe("Password must be at least 8 characters");
    expect(messages("Ab1!xyzw")).toEqual([]);
    expect(messages("")).toContain(PASSWORD_MESSAGES.tooShort);
  });

  it("caps the length at 128", () => {
    const ok = `Aa1!${"x".repeat(124)}`;
    expect(ok).toHaveLength(128);
    expect(messages(ok)).toEqual([]);
    expect(messages(`${ok}x`)).toEqual([PASSWORD_MESSAGES.tooLong]);
  });

  it("refuses non-strings", () => {
    expect(messages(undefined).length).toBeGreaterThan(0);
    expect(messages(12345678).length).toBeGreaterThan(0);
  });

  it("passwordProblem gives the first message or null", () => {
    expect(passwordProblem("Abcdef1!")).toBeNull();
    expect(passwordProblem("short")).toBe(PASSWORD_MESSAGES.tooShort);
    expect(passwordProblem("longenoughbutweak")).toBe(CLASSES);
  });
});

describe("rule hints for the UI", () => {
  it("lists one line per rule", () => {
    expect(describePasswordRules).toHaveLength(5);
    expect(describePasswordRules[0]).toMatch(/8 characters/);
    expect(describePasswordRules.join(" ")).toContain(PASSWORD_SPECIAL_CHARACTERS);
  });

  it("says which rules a password meets", () => {
    const status = Object.fromEntries(checkPasswordRules("abc1").map((r) => [r.id, r.met]));
    expect(status).toEqual({ length: false, uppercase: false, lowercase: true, digit: true, special: false });
    expect(checkPasswordRules("Abcdef1!").every((r) => r.met)).toBe(true);
  });
});
