import { describe, expect, it } from "vitest";
import {
  CONTACT_LIMITS,
  CONTACT_MESSAGES,
  contactFormValues,
  contactSchema,
  parseContact,
} from "~/domain/validation/contact";

const valid = {
  name: "Jane Doe",
  email: "jane@example.com",
  phone: "",
  subject: "Question about a business loan",
  message: "Hello, I would like to know more.",
};

describe("contact schema", () => {
  it("accepts a complete message without a phone", () => {
    const result = parseContact(valid);
    expect(result).toEqual({ ok: true, value: { ...valid, phone: undefined } });
  });

  it("trims fields and formats the phone as (XXX) XXX-XXXX", () => {
    const result = contactSchema.parse({ ...valid, name: "  Jane  ", phone: "555.123.4567" });
    expect(result.name).toBe("Jane");
    expect(result.phone).toBe("(555) 123-4567");
    expect(contactSchema.parse({ ...valid, phone: "+1 (555) 123-4567" }).phone).toBe("(555) 123-4567");
  });

  it("requires name, email, subject and message, each with its own message", () => {
    const result = parseContact({ name: "", email: " ", phone: "", subject: "", message: "   " });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.fieldErrors).toEqual({
      name: [CONTACT_MESSAGES.name],
      email: [CONTACT_MESSAGES.email],
      subject: [CONTACT_MESSAGES.subject],
      message: [CONTACT_MESSAGES.message],
    });
  });

  it("treats missing fields (not strings) as empty", () => {
    const result = parseContact({});
    expect(result.ok).toBe(false);
    if (!result.ok) expect(Object.keys(result.fieldErrors).sort()).toEqual(["email", "message", "name", "subject"]);
  });

  it("checks the e-mail pattern", () => {
    for (const email of ["jane", "jane@", "jane@example", "ja ne@example.com", "@example.com"]) {
      const result = parseContact({ ...valid, email });
      expect(result.ok, email).toBe(false);
      if (!result.ok) expect(result.fieldErrors.email).toEqual([CONTACT_MESSAGES.emailFormat]);
    }
    expect(parseContact({ ...valid, email: "first.last+tag@sub.example.co.uk" }).ok).toBe(true);
  });

  it("refuses a phone that is not 10 digits", () => {
    for (const phone of ["555", "555-1234", "55512345678", "25551234567"]) {
      const result = parseContact({ ...valid, phone });
      expect(result.ok, phone).toBe(false);
      if (!result.ok) expect(result.fieldErrors.phone).toEqual([CONTACT_MESSAGES.phone]);
    }
  });

  it("limits lengths", () => {
    const result = parseContact({ ...valid, message: "x".repeat(CONTACT_LIMITS.message + 1), name: "n".repeat(CONTACT_LIMITS.name + 1) });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.fieldErrors.message).toEqual([`Message must be at most ${CONTACT_LIMITS.message} characters`]);
      expect(result.fieldErrors.name).toEqual([`Name must be at most ${CONTACT_LIMITS.name} characters`]);
    }
    expect(parseContact({ ...valid, message: "x".repeat(CONTACT_LIMITS.message) }).ok).toBe(true);
  });

  it("keeps HTML as typed (escaping is the e-mail's and the page's job)", () => {
    const result = contactSchema.parse({ ...valid, message: "<b>bold</b> & <script>alert(1)</script>" });
    expect(result.message).toBe("<b>bold</b> & <script>alert(1)</script>");
  });

  it("reads form data as strings, ignoring files and unknown fields", () => {
    const form = new FormData();
    form.set("name", "Jane");
    form.set("email", "jane@example.com");
    form.set("subject", new Blob(["x"]) as unknown as string);
    form.set("company_website", "spam");
    expect(contactFormValues(form)).toEqual({ name: "Jane", email: "jane@example.com", phone: "", subject: "", message: "" });
  });
});
