import { describe, expect, it } from "vitest";
import { AUTH_MESSAGES, resetRequestSchema, signInSchema, signUpSchema } from "~/domain/validation/auth";
import { issuesToFieldErrors } from "~/domain/validation/field-errors";

/** Issue 18 item 3: an empty field says it is empty, once, and nothing about its missing content. */
const fieldErrors = (result: { success: boolean; error?: Parameters<typeof issuesToFieldErrors>[0] }) =>
  result.success || !result.error ? {} : issuesToFieldErrors(result.error);

describe("auth schemas: one message per empty field", () => {
  it("an empty sign-up: 'fill in' for name, e-mail and password, 'verify first' for the code, nothing else", () => {
    expect(fieldErrors(signUpSchema.safeParse({ fullName: "", email: "", code: "", password: "" }))).toEqual({
      fullName: [AUTH_MESSAGES.fillAllFields],
      email: [AUTH_MESSAGES.fillAllFields],
      code: [AUTH_MESSAGES.verifyFirst],
      password: [AUTH_MESSAGES.fillAllFields],
    });
  });

  it("still tells a malformed e-mail and a malformed code apart", () => {
    const errors = fieldErrors(signUpSchema.safeParse({ fullName: "A", email: "not-an-email", code: "12", password: "Str0ng!Passw0rd" }));
    expect(errors.email).toEqual([AUTH_MESSAGES.invalidEmail]);
    expect(errors.code).toEqual([AUTH_MESSAGES.invalidCode]);
  });

  it("an empty sign-in and an empty reset request say so once", () => {
    expect(fieldErrors(signInSchema.safeParse({ email: "", password: "" }))).toEqual({
      email: [AUTH_MESSAGES.enterEmailAndPassword],
      password: [AUTH_MESSAGES.enterEmailAndPassword],
    });
    expect(fieldErrors(resetRequestSchema.safeParse({ email: "" }))).toEqual({ email: [AUTH_MESSAGES.emailRequired] });
  });
});
