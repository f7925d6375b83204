import { data } from "react-router";
import { issuesToFieldErrors, type IssueLike } from "~/domain/validation/field-errors";
import { readForm, SMALL_FORM_MAX_BYTES } from "./read-body.server";

/**
 * What a service answers to a route: the status, the body (an ActionResult for pages, the API's JSON
 * for the JSON routes) and any headers (Retry-After, a session cookie). The route only hands it on.
 */
export type ServiceAnswer<Body> = { status: number; body: Body; headers?: Record<string, string> };

/** The route's `data(...)` response for a service's answer. */
export function respond<Body>(answer: ServiceAnswer<Body>) {
  return data(answer.body, { status: answer.status, headers: answer.headers });
}

/** A JSON API's response: never cached (the answers are per admin or per applicant). */
export function noStoreJson(body: unknown, status: number, headers?: HeadersInit): Response {
  return Response.json(body, { status, headers: { "Cache-Control": "no-store", ...headers } });
}

/** A JSON API's response for a service's answer (the body is the API's own JSON). */
export function jsonAnswer(answer: ServiceAnswer<unknown>): Response {
  return noStoreJson(answer.body, answer.status, answer.headers);
}

export type FormRead<Body> = { ok: true; form: FormData } | { ok: false; answer: ServiceAnswer<Body> };

export type ReadActionFormOptions = {
  limitBytes?: number;
  /** An unreadable body (wrong content type, broken multipart) reads as an empty form, so the service refuses it as bad input. */
  unreadableAsEmpty?: boolean;
};

/**
 * The posted form of an action, or the standard refusal: 413 when it is too large, 400 when it cannot
 * be read; `refuse` builds that action's body from the message.
 */
export async function readActionForm<Body>(
  request: Request,
  refuse: (message: string) => Body,
  { limitBytes = SMALL_FORM_MAX_BYTES, unreadableAsEmpty = false }: ReadActionFormOptions = {},
): Promise<FormRead<Body>> {
  const read = await readForm(request, limitBytes);
  if (read.ok) return { ok: true, form: read.value };
  if (read.status === 400 && unreadableAsEmpty) return { ok: true, form: new FormData() };
  return { ok: false, answer: { status: read.status, body: refuse(read.message) } };
}

/**
 * How an action reads its one form: the schema that parses it, how the posted fields become the
 * schema's input, the body limits, and the action's own refusal. `defineAction({ form })` reads and
 * parses with it before the handler runs; a service may use `readActionInput` directly.
 */
export type ActionForm<Input, Body> = {
  schema: { safeParse(input: unknown): { success: true; data: Input } | { success: false; error: { issues: readonly IssueLike[] } } };
  /** The posted form as the schema's input. Default: each field's text (the first, when repeated). */
  values?: (form: FormData) => Record<string, unknown>;
  limitBytes?: number;
  unreadableAsEmpty?: boolean;
  /**
   * The action's refusal body: for a form that is too large (413) or unreadable (400), the reader's
   * message; for one the schema refuses (400), its first issue's message and the messages per field.
   */
  refuse: (message: string, fieldErrors?: Record<string, string[]>) => Body;
};

export type InputRead<Input, Body> = { ok: true; input: Input } | { ok: false; answer: ServiceAnswer<Body> };

/** Each field's text, the first when a name repeats (files are left out). */
export function formTexts(form: FormData): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of form) if (typeof value === "string" && !(key in values)) values[key] = value;
  return values;
}

/** The posted form read (the limits of readActionForm) and parsed by the action's schema, or the action's refusal. */
export async function readActionInput<Input, Body>(request: Request, form: ActionForm<Input, Body>): Promise<InputRead<Input, Body>> {
  const read = await readActionForm(request, (message) => form.refuse(message), { limitBytes: form.limitBytes, unreadableAsEmpty: form.unreadableAsEmpty });
  if (!read.ok) return read;
  const parsed = form.schema.safeParse((form.values ?? formTexts)(read.form));
  if (parsed.success) return { ok: true, input: parsed.data };
  const message = parsed.error.issues[0]?.message ?? "Check the form and try again.";
  return { ok: false, answer: { status: 400, body: form.refuse(message, issuesToFieldErrors(parsed.error)) } };
}
