import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bankInfoSchema, financialInfoSchema, loanDetailsSchema, personalInfoSchema } from "~/domain/validation/application";
import { resetPasswordSchema, sendCodeSchema, signInSchema, signUpSchema } from "~/domain/validation/auth";
import { contactSchema } from "~/domain/validation/contact";
import { rejectItemSchema, replyItemSchema } from "~/domain/validation/requests";
import { denySchema, noteSchema } from "~/domain/validation/review";
import { sendMessageSchema } from "~/domain/validation/messages";
import { testimonialSchema } from "~/domain/validation/testimonial";
import { CONTROL_CHARACTER_MESSAGE, hasNoControlCharacters, withoutControlCharacters } from "~/domain/validation/text-rules";
import { validFields } from "../helpers/applications";

/**
 * Finding 6 of issue 16: a NUL in any text field reached PostgreSQL (which refuses it) and became a
 * 5xx. Every schema of every form now refuses control characters with a message for that field.
 */

const ID = "3f1c0f7e-8d4b-4a55-9a51-2b8f1f6c2d10";
type Case = { form: string; schema: { safeParse: (v: unknown) => { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } }; valid: Record<string, unknown>; fields: string[] };

const CASES: Case[] = [
  { form: "contact", schema: contactSchema, valid: { name: "Jane Doe", email: "jane@example.com", phone: "", subject: "A question", message: "Hello there" }, fields: ["name", "email", "subject", "message"] },
  { form: "testimonial", schema: testimonialSchema, valid: { rating: "5", fullName: "Jane Doe", displayName: "Jane", role: "Owner", location: "Dover, DE", content: "Quick and clear." }, fields: ["fullName", "displayName", "role", "location", "content"] },
  { form: "send code", schema: sendCodeSchema, valid: { email: "jane@example.com" }, fields: ["email"] },
  { form: "sign up", schema: signUpSchema, valid: { fullName: "Jane Doe", email: "jane@example.com", code: "123456", password: "Str0ng!Passw0rd" }, fields: ["fullName", "email"] },
  { form: "sign in", schema: signInSchema, valid: { email: "jane@example.com", password: "anything" }, fields: ["email"] },
  { form: "reset password", schema: resetPasswordSchema, valid: { token: "abc", password: "Str0ng!Passw0rd", confirmPassword: "Str0ng!Passw0rd" }, fields: ["token"] },
  { form: "admin note", schema: noteSchema, valid: { intent: "note", applicationId: ID, note: "Called the applicant." }, fields: ["note"] },
  { form: "message", schema: sendMessageSchema, valid: { intent: "send", body: "Hello,\n\tWhen will I hear back?" }, fields: ["body"] },
  { form: "deny", schema: denySchema, valid: { intent: "deny", applicationId: ID, reasons: [], otherReason: "Income could not be verified" }, fields: ["otherReason"] },
  {
    form: "deny on a consumer report",
    schema: denySchema,
    valid: {
      intent: "deny",
      applicationId: ID,
      reasons: ["Credit history"],
      creditSource: "consumer_report",
      agencyName: "Experian",
      agencyAddress: "P.O. Box 2002, Allen, TX 75013",
      agencyPhone: "888-397-3742",
      scoreUsed: "yes",
      creditScore: "612",
      scoreRangeLow: "300",
      scoreRangeHigh: "850",
      scoreDate: "2026-10-01",
      keyFactors: ["Length of credit history"],
    },
    fields: ["agencyName", "agencyAddress", "agencyPhone", "creditScore", "scoreDate"],
  },
  { form: "reject a requested item", schema: rejectItemSchema, valid: { intent: "reject", itemId: ID, reason: "The scan is cut off." }, fields: ["reason"] },
  { form: "reply to a requested item", schema: replyItemSchema, valid: { intent: "reply", itemId: ID, reply: "Six years." }, fields: ["reply"] },
  { form: "application step 1", schema: personalInfoSchema, valid: validFields, fields: ["addressLine1", "addressLine2", "city", "firstName", "email"] },
  { form: "application step 2", schema: loanDetailsSchema, valid: validFields, fields: ["loanPurpose", "businessName", "propertyAddress"] },
  { form: "application step 3", schema: financialInfoSchema, valid: validFields, fields: ["employerName", "jobTitle"] },
  { form: "application bank details", schema: bankInfoSchema, valid: validFields, fields: ["accountHolderName", "bankName", "bankAddress"] },
];

describe("control characters in form fields", () => {
  for (const { form, schema, valid, fields } of CASES) {
    it(`${form}: the valid form passes, and NUL, ESC or a C1 control in ${fields.join(", ")} is refused on that field`, () => {
      expect(schema.safeParse(valid).success).toBe(true);
      for (const field of fields) {
        for (const bad of ["\u0000", "\u001b", "\u0085", "\u007f"]) {
          const base = typeof valid[field] === "string" && valid[field] ? (valid[field] as string) : "Text";
          const result = schema.safeParse({ ...valid, [field]: `${base.slice(0, 2)}${bad}${base.slice(2)}` });
          expect(result.success, `${field} with U+${bad.charCodeAt(0).toString(16)}`).toBe(false);
          expect(result.error!.issues.some((i) => i.path[0] === field), field).toBe(true);
        }
      }
    });
  }

  it("free text fields say what to fix", () => {
    const result = contactSchema.safeParse({ name: "Jane\u0000", email: "jane@example.com", subject: "Hi", message: "Hello" });
    expect(result.error?.issues.find((i) => i.path[0] === "name")?.message).toBe(CONTROL_CHARACTER_MESSAGE);
  });

  it("tab and line breaks stay ordinary text in a message", () => {
    expect(contactSchema.safeParse({ name: "Jane", email: "jane@example.com", subject: "Hi", message: "Line one\r\n\tLine two" }).success).toBe(true);
  });

  it("the search box's cleaner removes exactly what the rule refuses", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 60 }), (s) => {
        const cleaned = withoutControlCharacters(s);
        expect(hasNoControlCharacters(cleaned)).toBe(true);
        if (hasNoControlCharacters(s)) expect(cleaned).toBe(s);
      }),
    );
  });
});
