import { data } from "react-router";
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
