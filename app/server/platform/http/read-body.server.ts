/**
 * The one way an action reads a request body. A Content-Length check alone is not a limit: a chunked
 * body has none, and `request.formData()` buffers whatever arrives. So the body is pulled chunk by
 * chunk, the bytes counted, and the read stops (the stream is cancelled) the moment the count passes
 * the route's limit, whatever the headers said. Only then are the collected bytes parsed.
 *
 * The outcome is a result, not an exception: each action answers a refusal in its own shape (a toast,
 * a field message), and a 413 or 400 must never turn into a 500.
 */

/** The forms of the site and the admin area (a few fields and a 2,000-character text at most). */
export const SMALL_FORM_MAX_BYTES = 64 * 1024;
/** A JSON request of a few ids (the admin reveal). */
export const SMALL_JSON_MAX_BYTES = 8 * 1024;

export const BODY_MESSAGES = {
  tooLarge: "The form is too large.",
  unreadable: "The form could not be read.",
} as const;

export type BodyRefusal = { ok: false; status: 413 | 400; message: string };
export type BodyResult<T> = { ok: true; value: T } | BodyRefusal;

const tooLarge: BodyRefusal = { ok: false, status: 413, message: BODY_MESSAGES.tooLarge };
const unreadable: BodyRefusal = { ok: false, status: 400, message: BODY_MESSAGES.unreadable };

/** The body's bytes, or a refusal once it passes `limitBytes` (without reading further). */
export async function readBodyBytes(request: Request, limitBytes: number): Promise<BodyResult<Uint8Array<ArrayBuffer>>> {
  const declared = request.headers.get("content-length");
  // Refused before a byte is read; the server entry drains a little of the rest so the answer arrives.
  if (declared !== null && Number(declared) > limitBytes) {
    await request.body?.cancel().catch(() => undefined);
    return tooLarge;
  }
  if (!request.body) return { ok: true, value: new Uint8Array(new ArrayBuffer(0)) };
  if (request.bodyUsed) return unreadable;

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limitBytes) {
        await reader.cancel().catch(() => undefined);
        return tooLarge;
      }
      chunks.push(value);
    }
  } catch (error) {
    // The server's own ceiling stopped a streamed body: too large, whatever this route's limit.
    if ((error as { name?: string } | null)?.name === "PayloadTooLargeError") return tooLarge;
    // The client hung up or the stream broke mid-body: nothing readable arrived.
    return unreadable;
  } finally {
    reader.releaseLock();
  }
  const bytes = new Uint8Array(new ArrayBuffer(total));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, value: bytes };
}

/** A urlencoded or multipart form of at most `limitBytes`. */
export async function readForm(request: Request, limitBytes: number): Promise<BodyResult<FormData>> {
  const body = await readBodyBytes(request, limitBytes);
  if (!body.ok) return body;
  const headers: Record<string, string> = {};
  const type = request.headers.get("content-type");
  if (type) headers["content-type"] = type;
  try {
    return { ok: true, value: await new Response(body.value, { headers }).formData() };
  } catch {
    return unreadable;
  }
}

/** A JSON body of at most `limitBytes`; anything that is not JSON is unreadable. */
export async function readJson(request: Request, limitBytes: number): Promise<BodyResult<unknown>> {
  const body = await readBodyBytes(request, limitBytes);
  if (!body.ok) return body;
  try {
    return { ok: true, value: JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body.value)) as unknown };
  } catch {
    return unreadable;
  }
}
