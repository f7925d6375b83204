import type { ActionResult, Toast } from "~/domain/action-result";
import { firstFieldError, issuesToFieldErrors } from "./field-errors";
import { z } from "./zod";
import { CONTROL_CHARACTER_MESSAGE, hasNoControlCharacters } from "./text-rules";
import { LIMITS } from "~/domain/enums";

/**
 * The 'Share Your Experience' form (docs/requirements.md §4, §6, §9): one schema for the browser (instant messages)
 * and the action. Its output is the row to store: display name falls back to the full name, an empty
 * location becomes null.
 */

export const TESTIMONIAL_FIELD_LIMITS = {
  fullName: 120,
  displayName: 120,
  role: 120,
  location: 120,
  content: LIMITS.testimonialMaxLength,
} as const;

export const TESTIMONIAL_MESSAGES = {
  ratingRequired: "Please select a star rating for your experience.",
  ratingRange: `Rating must be between ${LIMITS.testimonialRatingMin} and ${LIMITS.testimonialRatingMax} stars.`,
  fullNameRequired: "Please enter your full name.",
  fullNameTooLong: `Full name must be at most ${TESTIMONIAL_FIELD_LIMITS.fullName} characters.`,
  displayNameTooLong: `Display name must be at most ${TESTIMONIAL_FIELD_LIMITS.displayName} characters.`,
  roleRequired: "Please enter your role.",
  roleTooLong: `Role must be at most ${TESTIMONIAL_FIELD_LIMITS.role} characters.`,
  locationTooLong: `Location must be at most ${TESTIMONIAL_FIELD_LIMITS.location} characters.`,
  contentRequired: "Please write your review.",
  contentTooLong: `Your review must be at most ${TESTIMONIAL_FIELD_LIMITS.content} characters.`,
} as const;

/** The spec's toasts (docs/requirements.md §7, §9). */
export const TESTIMONIAL_TOASTS = {
  authRequired: { type: "error", title: "Authentication Required", description: "Please sign in to submit a testimonial." },
  ratingRequired: { type: "error", title: "Rating Required", description: TESTIMONIAL_MESSAGES.ratingRequired },
  submitted: {
    type: "success",
    title: "Testimonial Submitted",
    description: "Thank you! Your testimonial will be reviewed and published shortly.",
  },
  failed: {
    type: "error",
    title: "Submission Failed",
    description: "There was an error submitting your testimonial. Please try again.",
  },
} as const satisfies Record<string, Toast>;

/** What the /testimonials action answers (the page shows the toast and the field messages). */
export type TestimonialActionData = ActionResult<{ toast: Toast }>;

/** Form fields in screen order (the first field with a problem gets focus). */
export const TESTIMONIAL_FIELDS = ["rating", "fullName", "displayName", "role", "location", "content"] as const;
export type TestimonialField = (typeof TESTIMONIAL_FIELDS)[number];

const text = (required: string | null, max: number, tooLong: string) => {
  const base = z.string({ error: required ?? tooLong }).trim().max(max, tooLong).refine(hasNoControlCharacters, CONTROL_CHARACTER_MESSAGE);
  return required ? base.min(1, required) : base;
};

/** A form value as a number: "" and absent mean "not chosen". */
const rating = z.preprocess(
  (value) => (value === "" || value === null || value === undefined ? undefined : typeof value === "string" ? Number(value) : value),
  z
    .number({ error: TESTIMONIAL_MESSAGES.ratingRequired })
    .int(TESTIMONIAL_MESSAGES.ratingRange)
    .min(LIMITS.testimonialRatingMin, TESTIMONIAL_MESSAGES.ratingRange)
    .max(LIMITS.testimonialRatingMax, TESTIMONIAL_MESSAGES.ratingRange),
);

export const testimonialSchema = z
  .object({
    rating,
    fullName: text(TESTIMONIAL_MESSAGES.fullNameRequired, TESTIMONIAL_FIELD_LIMITS.fullName, TESTIMONIAL_MESSAGES.fullNameTooLong),
    displayName: text(null, TESTIMONIAL_FIELD_LIMITS.displayName, TESTIMONIAL_MESSAGES.displayNameTooLong).optional(),
    role: text(TESTIMONIAL_MESSAGES.roleRequired, TESTIMONIAL_FIELD_LIMITS.role, TESTIMONIAL_MESSAGES.roleTooLong),
    location: text(null, TESTIMONIAL_FIELD_LIMITS.location, TESTIMONIAL_MESSAGES.locationTooLong).optional(),
    content: text(TESTIMONIAL_MESSAGES.contentRequired, TESTIMONIAL_FIELD_LIMITS.content, TESTIMONIAL_MESSAGES.contentTooLong),
  })
  .transform((v) => ({
    rating: v.rating,
    fullName: v.fullName,
    displayName: v.displayName || v.fullName,
    role: v.role,
    location: v.location ? v.location : null,
    content: v.content,
  }));

export type TestimonialInput = z.input<typeof testimonialSchema>;
export type TestimonialValues = z.output<typeof testimonialSchema>;

/** The toast title for a schema message: the spec's 'Rating Required', else a generic one. */
export function testimonialProblemTitle(message: string): string {
  if (message === TESTIMONIAL_MESSAGES.ratingRequired || message === TESTIMONIAL_MESSAGES.ratingRange) return "Rating Required";
  if (/^Please (enter|write)/.test(message)) return "Missing Information";
  return "Invalid Input";
}

/**
 * Validates a submission for the form (before posting) and the action alike: the stored values, or
 * the messages per field and the toast naming the first problem.
 */
export function checkTestimonial(
  input: Record<string, unknown>,
): { ok: true; value: TestimonialValues } | { ok: false; fieldErrors: Record<string, string[]>; toast: Toast } {
  const parsed = testimonialSchema.safeParse(input);
  if (parsed.success) return { ok: true, value: parsed.data };
  const { fieldErrors, first } = testimonialProblems(parsed.error);
  return { ok: false, fieldErrors, toast: { type: "error", title: testimonialProblemTitle(first.message), description: first.message } };
}

/** Per-field messages (first path segment) and the first problem in screen order. */
export function testimonialProblems(error: z.ZodError): { fieldErrors: Record<string, string[]>; first: { field: string; message: string } } {
  const fieldErrors = issuesToFieldErrors(error);
  const first = firstFieldError(fieldErrors, [...TESTIMONIAL_FIELDS, ...Object.keys(fieldErrors)]);
  return { fieldErrors, first: first ?? { field: "form", message: TESTIMONIAL_TOASTS.failed.description } };
}
