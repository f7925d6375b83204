import { desc, eq } from "drizzle-orm";
import { logFailure } from "~/server/platform/log/describe-error.server";
import { getDb, type Db } from "~/server/platform/db/client.server";
import { readActionForm, type ServiceAnswer } from "~/server/platform/http/action-answer.server";
import { testimonials } from "~/server/platform/db/schema.server";
import { columnsOf } from "~/server/platform/db/select-columns.server";
import { THROTTLES, throttleRefusal } from "~/server/platform/security/throttle.server";
import type { Toast } from "~/domain/action-result";
import { checkTestimonial, TESTIMONIAL_FIELDS, TESTIMONIAL_TOASTS, type TestimonialActionData, type TestimonialValues } from "~/domain/validation/testimonial";

/**
 * Testimonials (docs/requirements.md §4, §8): signed-in users submit one; it is stored 'pending' with their user id
 * and shown on /testimonials only once an admin approved it. Text is stored verbatim and always
 * rendered as text.
 */

/** Forms larger than this are refused before parsing (the review is at most 2000 characters). */
const MAX_FORM_BYTES = 32 * 1024;

export type ApprovedTestimonial = {
  id: string;
  displayName: string;
  role: string;
  location: string | null;
  content: string;
  rating: number;
  /** ISO 8601. */
  createdAt: string;
};

/** Approved testimonials, newest first (the author's full name and user id are not exposed). */
export async function listApprovedTestimonials({ limit = 24 }: { limit?: number } = {}, db: Db = getDb()): Promise<ApprovedTestimonial[]> {
  const rows = await db
    .select(columnsOf(testimonials, ["id", "displayName", "role", "location", "content", "rating", "createdAt"]))
    .from(testimonials)
    .where(eq(testimonials.status, "approved"))
    .orderBy(desc(testimonials.createdAt), desc(testimonials.id))
    .limit(Math.max(1, Math.min(100, Math.floor(limit))));
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
}

/** Inserts a validated testimonial as 'pending'; returns its id. */
export async function createTestimonial(userId: string, values: TestimonialValues, db: Db = getDb()): Promise<{ id: string }> {
  const [row] = await db
    .insert(testimonials)
    .values({ userId, ...values, status: "pending" })
    .returning({ id: testimonials.id });
  if (!row) throw new Error("testimonial insert returned no row");
  return row;
}

export type TestimonialSubmitResult = ServiceAnswer<TestimonialActionData> & { id?: string };

const refused = (toast: Toast, fieldErrors?: TestimonialActionData["fieldErrors"]): TestimonialActionData => ({ ok: false, toast, fieldErrors });

function refusal(status: number, toast: Toast, fieldErrors?: TestimonialActionData["fieldErrors"]): TestimonialSubmitResult {
  return { status, body: refused(toast, fieldErrors) };
}

/** The known fields of a posted form as strings (a file or an absent field is left out). */
function formValues(form: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of TESTIMONIAL_FIELDS) {
    const value = form.get(name);
    if (typeof value === "string") out[name] = value;
  }
  return out;
}

/**
 * Validates and stores one submission for `user` (null: a visitor, refused with 401). Never throws for
 * bad input or a database failure: the answer is a status and the toast to show.
 */
export async function submitTestimonial(
  user: { id: string } | null,
  input: FormData | Record<string, unknown>,
  db: Db = getDb(),
): Promise<TestimonialSubmitResult> {
  if (!user) return refusal(401, TESTIMONIAL_TOASTS.authRequired);

  const checked = checkTestimonial(input instanceof FormData ? formValues(input) : input);
  if (!checked.ok) return refusal(400, checked.toast, checked.fieldErrors);

  try {
    const throttled = await throttleRefusal(
      [[`testimonial:user:${user.id}`, THROTTLES.testimonialPerUser]],
      (message) => refused({ type: "error", title: "Too Many Submissions", description: message }),
      { db },
    );
    if (throttled) return throttled;
    const { id } = await createTestimonial(user.id, checked.value, db);
    return { status: 200, body: { ok: true, toast: TESTIMONIAL_TOASTS.submitted }, id };
  } catch (error) {
    logFailure("testimonials", "submission failed", error, { user: user.id });
    return refusal(500, TESTIMONIAL_TOASTS.failed);
  }
}

/** Reads the posted form (refusing oversized or unreadable bodies), then submitTestimonial. */
export async function submitTestimonialRequest(request: Request, user: { id: string } | null): Promise<TestimonialSubmitResult> {
  if (!user) return refusal(401, TESTIMONIAL_TOASTS.authRequired);
  const read = await readActionForm(request, () => refused(TESTIMONIAL_TOASTS.failed), { limitBytes: MAX_FORM_BYTES });
  return read.ok ? submitTestimonial(user, read.form) : read.answer;
}
