import { errorToast, type Toast } from "~/domain/action-result";
import { TOO_LARGE } from "~/domain/upload-rules";
import { documentFileMessage, MAX_FILE_BYTES } from "~/domain/validation/application";
import { issuesToFieldErrors } from "~/domain/validation/field-errors";
import {
  acceptItemSchema,
  rejectItemSchema,
  replyItemSchema,
  requestDocumentsSchema,
  requestFormValues,
  uploadItemSchema,
  type ApplicantRequestIntent,
  type RequestActionData,
  type StaffRequestIntent,
} from "~/domain/validation/requests";
import { createLimit } from "~/server/platform/uploads/concurrency-limit.server";
import { parseSubmission, type FormShape, type ParsedSubmission } from "~/server/applications/index.server";
import type { Caller } from "~/server/platform/audit/audit.server";
import { readActionForm, type ServiceAnswer } from "~/server/platform/http/action-answer.server";
import { logFailure } from "~/server/platform/log/describe-error.server";
import { THROTTLES, throttleRefusal } from "~/server/platform/security/throttle.server";
import { answerWithReply, answerWithUpload, createRequest, reviewItem } from "./requests.server";
import { AppError, actionRefusal, isAppError } from "~/server/platform/http/app-error.server";
import { UUID_PATTERN } from "~/domain/ids";

/**
 * The What We Need actions behind the two resource routes: POST /admin/applications/:id/requests
 * (request | accept | reject; the route has already required a verified admin) and POST
 * /dashboard/applications/:id/requests (upload | reply; the signed-in applicant, their own items only).
 * Every answer is a RequestActionData with a toast; bad input is a 400 naming the field, never a 500.
 */

export type RequestAnswer = ServiceAnswer<RequestActionData>;

/** Request Documents with ten 1,000-character notes is far below this. */
export const MAX_REQUEST_FORM_BYTES = 64 * 1024;
/** One document of at most 5 MB plus the item's id and the intent. */
export const MAX_REQUEST_UPLOAD_BYTES = MAX_FILE_BYTES + 16 * 1024;

function answer(status: number, intent: RequestActionData["intent"], toast: Toast, extra: Partial<RequestActionData> = {}): RequestAnswer {
  return { status, body: { ok: status < 300, intent, toast, at: Date.now(), ...extra } };
}

const failed = (title: string, message: string) => errorToast(title, message);

function refusal(error: unknown, intent: RequestActionData["intent"], title: string, scope: string): RequestAnswer {
  if (error instanceof AppError) return actionRefusal(error, { title, stamped: true }, { intent });
  logFailure(scope, `request ${intent ?? "action"} failed`, error);
  return answer(503, intent, failed(title, "Something went wrong. Please try again."));
}

/** Staff: request | accept | reject on one application. */
export async function staffRequestAction(request: Request, applicationId: string, caller: Caller): Promise<RequestAnswer> {
  const title = "Failed to update request";
  const read = await readActionForm(request, (message): RequestActionData => ({ ok: false, intent: null, toast: failed(title, message), at: Date.now() }), {
    limitBytes: MAX_REQUEST_FORM_BYTES,
    unreadableAsEmpty: true,
  });
  if (!read.ok) return read.answer;
  if (!UUID_PATTERN.test(applicationId)) return answer(404, null, failed(title, "This application could not be found."));
  const values = requestFormValues(read.form);
  const intent = values.intent as StaffRequestIntent;
  const schema = intent === "request" ? requestDocumentsSchema() : intent === "accept" ? acceptItemSchema : intent === "reject" ? rejectItemSchema : null;
  if (!schema) return answer(400, null, failed(title, "Unknown action."));
  const parsed = schema.safeParse(values);
  if (!parsed.success) {
    const fieldErrors = issuesToFieldErrors(parsed.error);
    return answer(400, intent, failed(title, parsed.error.issues[0]?.message ?? "Check the form."), { fieldErrors });
  }
  try {
    const input = parsed.data;
    if (input.intent === "request") {
      await createRequest(applicationId, input, caller);
      const n = input.items.length;
      return answer(200, intent, { type: "success", title: "Documents requested", description: `${n} item${n === 1 ? "" : "s"} requested; the applicant was notified by e-mail.` });
    }
    if (input.intent === "accept") {
      await reviewItem(applicationId, input.itemId, { accept: true }, caller);
      return answer(200, intent, { type: "success", title: "Item accepted" });
    }
    await reviewItem(applicationId, input.itemId, { accept: false, reason: input.reason }, caller);
    return answer(200, intent, { type: "success", title: "Item rejected", description: "The applicant sees your reason and can answer again." });
  } catch (error) {
    return refusal(error, intent, title, "requests");
  }
}

/** Applicant: reply (a small form) or upload (multipart, one file) on their own application. */
export async function applicantRequestAction(request: Request, applicationId: string, applicant: { id: string }): Promise<RequestAnswer> {
  const type = request.headers.get("content-type") ?? "";
  // Uploads are the only multipart posts: read as a stream with the document limits, not as a small form.
  if (type.toLowerCase().startsWith("multipart/form-data")) return uploadAction(request, applicationId, applicant);
  const title = "Failed to send your answer";
  const read = await readActionForm(request, (message): RequestActionData => ({ ok: false, intent: null, toast: failed(title, message), at: Date.now() }), {
    limitBytes: MAX_REQUEST_FORM_BYTES,
    unreadableAsEmpty: true,
  });
  if (!read.ok) return read.answer;
  const values = requestFormValues(read.form);
  if (values.intent === "upload") return answer(400, "upload", failed("Upload failed", "Choose a file to upload."));
  if (values.intent !== "reply") return answer(400, null, failed(title, "Unknown action."));
  if (!UUID_PATTERN.test(applicationId)) return answer(404, "reply", failed(title, "This item could not be found."));
  const parsed = replyItemSchema.safeParse(values);
  if (!parsed.success) {
    return answer(400, "reply", failed(title, parsed.error.issues[0]?.message ?? "Check your answer."), { fieldErrors: issuesToFieldErrors(parsed.error) });
  }
  try {
    await answerWithReply(applicationId, parsed.data.itemId, parsed.data.reply, applicant);
    return answer(200, "reply", { type: "success", title: "Answer sent", description: "We will review it and let you know." });
  } catch (error) {
    return refusal(error, "reply", title, "requests");
  }
}

async function uploadAction(request: Request, applicationId: string, applicant: { id: string }): Promise<RequestAnswer> {
  const title = "Upload failed";
  const intent: ApplicantRequestIntent = "upload";
  const throttled = await throttleRefusal([[`request-upload:user:${applicant.id}`, THROTTLES.requestUploadPerUser]], (message) => message);
  if (throttled) return { status: 429, headers: throttled.headers, body: { ok: false, intent, toast: failed(title, throttled.body), at: Date.now() } };
  let parsed: ParsedSubmission;
  try {
    parsed = await parseSubmission(request, { shape: REQUEST_UPLOAD_SHAPE });
  } catch (error) {
    if (isAppError(error, "upload")) return actionRefusal(error, { title, stamped: true }, { intent });
    throw error;
  }
  try {
    if (parsed.fields.intent !== "upload") return answer(400, null, failed(title, "Unknown action."));
    if (!UUID_PATTERN.test(applicationId)) return answer(404, intent, failed(title, "This item could not be found."));
    const fields = uploadItemSchema.safeParse({ intent: "upload", itemId: parsed.fields.itemId });
    if (!fields.success) return answer(400, intent, failed(title, fields.error.issues[0]?.message ?? "Check the form."));
    const file = parsed.files.get("file");
    if (!file) return answer(400, intent, failed(title, "Choose a file to upload."), { fieldErrors: { file: ["Choose a file to upload."] } });
    await fileWork(async () => answerWithUpload(applicationId, fields.data.itemId, { ...file, bytes: await file.read() }, applicant));
    return answer(200, intent, { type: "success", title: "Document uploaded", description: "We will review it and let you know." });
  } catch (error) {
    return refusal(error, intent, title, "requests");
  } finally {
    await parsed.dispose?.().catch((error: unknown) => console.error(`[requests] could not remove spooled upload: ${(error as Error).message}`));
  }
}

/** Checking and storing a file holds it in memory: a few at a time across the process (as the wizard does). */
const fileWork = createLimit(3);

/**
 * One document and the item's id, read as a stream by the wizard's reader with this form's limits:
 * a file past 5 MB or a body past MAX_REQUEST_UPLOAD_BYTES stops the read at once. The file goes to
 * the private spool folder, so many uploads at once cost disk, not memory; the caller disposes it.
 */
export const REQUEST_UPLOAD_SHAPE: FormShape = {
  textFields: new Set(["intent", "itemId"]),
  fileFields: new Map([["file", MAX_FILE_BYTES]]),
  maxBytes: MAX_REQUEST_UPLOAD_BYTES,
  tooLarge: documentFileMessage("Document", TOO_LARGE),
  upload: {
    fields: 4,
    fieldSize: 256,
    parts: 6,
    fieldNameSize: 32,
    nameShown: 32,
    empty: "Choose a file to upload.",
    unreadable: "The upload could not be read.",
    tooManyFiles: "Upload one file at a time.",
    storeFailed: "The upload could not be stored. Please try again.",
  },
};
