import { errorToast, type Toast } from "~/domain/action-result";
import type { ServiceAnswer } from "./action-answer.server";

/**
 * The one error a service throws when it refuses a request for a reason the user is told about: a
 * code that tells refusals apart (tests and the few callers that react to one reason), the HTTP status
 * of the answer, the user's message, the form field it is about (if any) and, for a 429, when to try
 * again. Anything else a service throws is a failure: it is logged and answered with a generic
 * message, never with its own text (a driver's message can repeat the values it was given).
 */
export type AppErrorOptions = {
  field?: string;
  retryAfterSeconds?: number;
  /** More the JSON answer carries beside the message (the wizard's step). */
  details?: Record<string, string | number>;
};

export class AppError extends Error {
  readonly field?: string;
  readonly retryAfterSeconds?: number;
  readonly details?: Record<string, string | number>;

  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message);
    this.name = "AppError";
    if (options.field !== undefined) this.field = options.field;
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
    if (options.details !== undefined) this.details = options.details;
  }
}

/** Whether `error` is an AppError (of `code`, when given). */
export function isAppError(error: unknown, code?: string): error is AppError {
  return error instanceof AppError && (code === undefined || error.code === code);
}

/** Retry-After on a refusal that says when to try again; nothing otherwise. */
function retryHeaders(error: AppError): Record<string, string> | undefined {
  return error.retryAfterSeconds === undefined ? undefined : { "Retry-After": String(error.retryAfterSeconds) };
}

export type RefusalShape = {
  /** The toast's title (the action's "… failed" words); the error's message is its description. */
  title: string;
  /** Put the message on the error's field too (the form shows it beside the input). Default true. */
  onField?: boolean;
  /** Stamp the answer with `at` so two equal refusals each show their toast (the admin and account pages). */
  stamped?: boolean;
};

export type RefusalBody<Extra extends object> = Extra & { ok: false; toast: Toast; fieldErrors?: Record<string, string[]>; at?: number };

/**
 * The one mapper from an AppError to a page's answer: the error's status, `ok: false`, an error toast,
 * the message on its field, Retry-After on a 429, and what else the action answers (its intent, ...).
 */
export function actionRefusal<Extra extends object>(error: AppError, shape: RefusalShape & { stamped: true }, extra: Extra): ServiceAnswer<RefusalBody<Extra> & { at: number }>;
export function actionRefusal<Extra extends object>(error: AppError, shape: RefusalShape, extra: Extra): ServiceAnswer<RefusalBody<Extra>>;
export function actionRefusal<Extra extends object>(error: AppError, shape: RefusalShape, extra: Extra): ServiceAnswer<RefusalBody<Extra>> {
  const body: RefusalBody<Extra> = { ok: false, ...extra, toast: errorToast(shape.title, error.message) };
  if (shape.stamped) body.at = Date.now();
  if (error.field !== undefined && shape.onField !== false) body.fieldErrors = { [error.field]: [error.message] };
  const headers = retryHeaders(error);
  return headers ? { status: error.status, body, headers } : { status: error.status, body };
}

/**
 * An intent action's own refusals, those it finds before any service runs (a form it cannot read, an
 * unknown intent, an id that names nothing, a field its schema refuses) and its generic failure: the
 * action's toast title over the message, stamped with `at`, and the messages per field when there are any.
 */
export function stampedRefusal<Intent>(title: string) {
  type Answer = ServiceAnswer<RefusalBody<{ intent: Intent | null }> & { at: number }>;
  return (status: number, intent: Intent | null, message: string, fieldErrors?: Record<string, string[]>): Answer => ({
    status,
    body: { ok: false, intent, toast: errorToast(title, message), at: Date.now(), ...(fieldErrors ? { fieldErrors } : {}) },
  });
}

export type JsonRefusalBody = { ok: false; field?: string; message: string; [detail: string]: unknown };

/** The same error as a JSON API's answer: `{ ok: false, ...details, field?, message }` (the APIs' own field names). */
export function jsonRefusal(error: AppError): ServiceAnswer<JsonRefusalBody> {
  const body: JsonRefusalBody = { ok: false, ...error.details, ...(error.field === undefined ? {} : { field: error.field }), message: error.message };
  const headers = retryHeaders(error);
  return headers ? { status: error.status, body, headers } : { status: error.status, body };
}
