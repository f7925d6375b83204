import type { ActionResult, Toast } from "~/domain/action-result";
import { issuesToFieldErrors } from "./field-errors";
import { z } from "./zod";
import { CONTROL_CHARACTER_MESSAGE, hasNoControlCharacters } from "./text-rules";
import { digitsOnly, formatPhone } from "~/domain/formats";

/**
 * The contact form (docs/requirements.md §4, §6): name, email, subject and message required, phone optional.
 * One schema for both sides: the browser checks before sending, the server checks again.
 * Inputs are the strings a form holds; the phone comes out formatted as (XXX) XXX-XXXX or undefined.
 */

export const CONTACT_MESSAGES = {
  name: "Please enter your name",
  email: "Please enter your email address",
  emailFormat: "Please enter a valid email address",
  phone: "Please enter a valid 10-digit phone number",
  subject: "Please enter a subject",
  message: "Please enter your message",
  tooLong: (what: string, max: number) => `${what} must be at most ${max} characters`,
  success: "Message sent! We'll get back to you within 24 hours.",
  failure: "Failed to send message. Please try again or call us directly.",
} as const;

export const CONTACT_LIMITS = { name: 100, email: 254, subject: 150, message: 5000 } as const;

/** The honeypot: a field people never see or fill; bots that fill every field give themselves away. */
export const CONTACT_HONEYPOT_FIELD = "company_website";

/** Field order on the form (focus goes to the first invalid one). */
export const CONTACT_FIELDS = ["name", "email", "phone", "subject", "message"] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];

// A plain address check (the spec's "simple address pattern"): something@something.tld, no spaces.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const requiredText = (message: string, what: string, max: number) =>
  z
    .string({ error: message })
    .trim()
    .min(1, message)
    .max(max, CONTACT_MESSAGES.tooLong(what, max))
    .refine(hasNoControlCharacters, CONTROL_CHARACTER_MESSAGE);

export const contactSchema = z.object({
  name: requiredText(CONTACT_MESSAGES.name, "Name", CONTACT_LIMITS.name),
  email: requiredText(CONTACT_MESSAGES.email, "Email", CONTACT_LIMITS.email).pipe(
    z.string().regex(EMAIL_PATTERN, CONTACT_MESSAGES.emailFormat),
  ),
  phone: z
    .string()
    .trim()
    .optional()
    .refine((v) => !v || digitsOnly(v).length === 10 || (digitsOnly(v).length === 11 && digitsOnly(v).startsWith("1")), CONTACT_MESSAGES.phone)
    .transform((v) => (v ? formatPhone(v) : undefined)),
  subject: requiredText(CONTACT_MESSAGES.subject, "Subject", CONTACT_LIMITS.subject),
  message: requiredText(CONTACT_MESSAGES.message, "Message", CONTACT_LIMITS.message),
});

export type ContactInput = z.input<typeof contactSchema>;
export type ContactMessageInput = z.output<typeof contactSchema>;
export type ContactFieldErrors = Partial<Record<ContactField, string[]>>;

/** What the contact action answers (the form shows the toast, the field errors, and refills on failure). */
export type ContactActionData = ActionResult<{
  toast: Toast;
  fieldErrors?: ContactFieldErrors;
  /** What was sent, to fill the form again when the page was posted without JavaScript. */
  values?: Record<string, string>;
}>;

/** Reads the form's fields as strings (anything else, e.g. a file, counts as empty). */
export function contactFormValues(form: FormData): Record<ContactField, string> {
  const get = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  return { name: get("name"), email: get("email"), phone: get("phone"), subject: get("subject"), message: get("message") };
}

/** Validates; on failure gives one list of messages per field. */
export function parseContact(
  values: Record<string, unknown>,
): { ok: true; value: ContactMessageInput } | { ok: false; fieldErrors: ContactFieldErrors } {
  const result = contactSchema.safeParse(values);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, fieldErrors: issuesToFieldErrors(result.error, { fields: CONTACT_FIELDS }) as ContactFieldErrors };
}
