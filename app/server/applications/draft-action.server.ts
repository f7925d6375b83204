import { DOCUMENT_FIELDS, MAX_FILE_BYTES } from "~/domain/validation/application";
import { checkDraftFields, DRAFT_MESSAGES, DRAFT_TEXT_FIELDS, draftEnvelopeSchema } from "~/domain/validation/application-draft";
import type { SavedDraft } from "~/domain/views/application-draft";
import { getDb, type Db } from "~/server/platform/db/client.server";
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from "~/server/platform/db/unavailable.server";
import type { ServiceAnswer } from "~/server/platform/http/action-answer.server";
import { logFailure } from "~/server/platform/log/describe-error.server";
import { throttleRefusal } from "~/server/platform/security/throttle.server";
import { getStorage } from "~/server/platform/storage/storage.server";
import { discardDraft, saveDraft } from "./drafts.server";
import { parseSubmission, type FormShape, type ParsedSubmission } from "./upload-parser.server";
import { AppError } from "~/server/platform/http/app-error.server";

/**
 * POST /api/drafts: the wizard's Save and Finish Later, multipart like the submission.
 * intent=save stores the fields present (each checked by its step's rule) and any documents sent;
 * intent=discard removes the draft and its files. Answers JSON: 200 {ok, draft} or {ok}, 4xx
 * {ok:false, field?, message}, 401 without a session, 403 for staff, 503 when storage or the database fails.
 */

export type DraftAnswerBody = { ok: true; draft?: SavedDraft; message: string } | { ok: false; field?: string; message: string };

const ENVELOPE_FIELDS = ["intent", "step", "fromLoanType"];

/** The draft's parts: its fields and the six (seven) documents, no signature; the same 5 MB per file. */
export const DRAFT_SHAPE: FormShape = {
  textFields: new Set([...DRAFT_TEXT_FIELDS, ...ENVELOPE_FIELDS]),
  fileFields: new Map(DOCUMENT_FIELDS.map((d) => [d.field, MAX_FILE_BYTES] as [string, number])),
  maxBytes: DOCUMENT_FIELDS.length * MAX_FILE_BYTES + 64 * 1024,
  tooLarge: "The saved application is too large (35 MB at most).",
};

/** Saves are frequent (every step change) but each may carry files: 120 per user per 10 minutes. */
const DRAFT_THROTTLE = { limit: 120, windowSeconds: 600 };

const refuse = (status: number, message: string, field?: string): ServiceAnswer<DraftAnswerBody> => ({
  status,
  body: field ? { ok: false, field, message } : { ok: false, message },
});

export async function draftAction(request: Request, user: { id: string; isStaff: boolean }, db: Db = getDb()): Promise<ServiceAnswer<DraftAnswerBody>> {
  // Staff apply for no one: their drafts would be another person's data on a staff account.
  if (user.isStaff) return refuse(403, DRAFT_MESSAGES.staff);
  const throttled = await throttleRefusal([[`draft:user:${user.id}`, DRAFT_THROTTLE]], (message): DraftAnswerBody => ({ ok: false, message }), { db });
  if (throttled) return throttled;

  let form: ParsedSubmission | undefined;
  try {
    form = await parseSubmission(request, { shape: DRAFT_SHAPE });
    const { intent, step, fromLoanType, ...fields } = form.fields;
    const envelope = draftEnvelopeSchema.safeParse({ intent, step, fromLoanType, loanType: fields.loanType });
    if (!envelope.success) {
      const issue = envelope.error.issues[0];
      const field = String(issue?.path[0] ?? "intent");
      return refuse(400, field === "intent" ? DRAFT_MESSAGES.intent : (issue?.message ?? DRAFT_MESSAGES.intent), field);
    }
    const input = envelope.data;
    if (input.intent === "discard") {
      if (form.files.size > 0) return refuse(400, "A discard carries no files.");
      const found = await discardDraft(db, getStorage(), user.id, input.loanType);
      return found ? { status: 200, body: { ok: true, message: DRAFT_MESSAGES.discarded } } : refuse(404, DRAFT_MESSAGES.notFound);
    }
    const checked = checkDraftFields(fields);
    if (!checked.ok) return refuse(400, checked.problem.message, checked.problem.field);
    const draft = await saveDraft(db, getStorage(), user.id, {
      loanType: input.loanType,
      step: input.step,
      fromLoanType: input.fromLoanType,
      values: checked.value,
      files: [...form.files.values()],
    });
    return { status: 200, body: { ok: true, draft, message: DRAFT_MESSAGES.saved } };
  } catch (error) {
    // A draft's refusal names the field but not the wizard's step (the draft is saved whatever the step).
    if (error instanceof AppError) return refuse(error.status, error.message, error.field);
    if (isDatabaseUnavailable(error)) return { status: 503, body: { ok: false, message: DATABASE_UNAVAILABLE_MESSAGE }, headers: { "Retry-After": "5" } };
    // Never the error itself: a failed insert's message repeats the values.
    logFailure("drafts", "draft save failed", error, { user: user.id });
    return refuse(503, DRAFT_MESSAGES.failed);
  } finally {
    await form?.dispose?.().catch(() => undefined);
  }
}
