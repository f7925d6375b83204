import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { takeDirectWriter } from "~/server/platform/events/stream.server";
import { takeDocumentBytes } from "~/server/platform/http/rendered-document.server";
import { encodeDocument } from "./document-encoding";

/**
 * Node request -> Fetch Request -> our handler -> Node response. Ours rather than React Router's
 * listener so the load context is built from the Node request itself (the CSP nonce, the client IP)
 * and the response body is piped with backpressure.
 */

/** How long, and how much, a refused body is read and thrown away after the answer (see drainAfterAnswer). */
const DRAIN_GRACE_MS = 1000;
const DRAIN_LIMIT_BYTES = 1024 * 1024;
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade"]);

/**
 * The largest body any path but the application upload may carry. Every action reads through
 * app/server/platform/http/read-body.server.ts with a far smaller limit of its own; this ceiling is the second
 * line, for a body read some other way: declared bigger, it is refused before React Router runs;
 * streamed bigger, the read fails once the ceiling is passed.
 */
export const BODY_CEILING_BYTES = 1024 * 1024;
/**
 * Paths that stream multi-megabyte documents under their own limits: the wizard's submission and its
 * saved draft (upload-parser.server.ts) and an answer to a What We Need item
 * (request-actions.server.ts, one 5 MB file).
 */
const UPLOAD_PATHS = new Set(["/api/applications", "/api/drafts"]);
const REQUEST_UPLOAD_PATH = /^\/dashboard\/applications\/[0-9a-f-]{36}\/requests$/i;
const isUploadPath = (pathname: string) => UPLOAD_PATHS.has(pathname) || REQUEST_UPLOAD_PATH.test(pathname);

export type Refusal = { status: 400 | 413; message: string };

/** A host we can put in a URL: a name, an IPv4 or a bracketed IPv6 address, and a port. */
const HOST = /^(?:[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_])?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The request URL on our own origin, or why there is none. Only origin-form targets ("/path?query")
 * are served: "*" (OPTIONS *) and absolute-form ("http://other/") name no page of ours. The path is
 * appended to the origin as text, because `new URL("//evil.example/x", base)` reads the path as a
 * host: "//x" stays the path "//x" here (and gets the 404 page). A path that cannot be
 * percent-decoded names no page either.
 */
export function requestUrl(req: IncomingMessage, secure: boolean): URL | Refusal {
  const target = req.url ?? "/";
  if (!target.startsWith("/")) return { status: 400, message: "Bad Request: the request target must be a path." };
  const host = req.headers.host ?? "localhost";
  if (!HOST.test(host)) return { status: 400, message: "Bad Request: the Host header is not a host name." };
  let url: URL;
  try {
    url = new URL(`${secure ? "https" : "http"}://${host}${target}`);
    decodeURIComponent(url.pathname);
  } catch {
    return { status: 400, message: "Bad Request: the path is not a valid URL path." };
  }
  return url;
}

/** A declared body over the ceiling, on a path that does not stream uploads. */
export function declaredTooLarge(req: IncomingMessage, url: URL): Refusal | null {
  if (isUploadPath(url.pathname)) return null;
  const declared = Number(req.headers["content-length"] ?? "0");
  return declared > BODY_CEILING_BYTES ? { status: 413, message: "The request is too large." } : null;
}

/** A refusal as plain text, sent before anything read the body (which is then drained, see below). */
export function sendRefusal(req: IncomingMessage, res: ServerResponse, refusal: Refusal): void {
  drainAfterAnswer(req, res);
  res.statusCode = refusal.status;
  res.setHeader("Content-Type", "text/plain; charset=utf-8");
  res.setHeader("Cache-Control", "no-store");
  res.end(refusal.message);
}

/**
 * A refusal (413, 400) may be sent before the body was read. Closing a socket with unread bytes makes
 * the kernel send a reset, which destroys the answer if the client has not read it yet (measured: a
 * fast 413 to a chunked upload arrived as "connection reset" about half the time). So, as nginx's
 * lingering close does: the answer is followed by our end of the connection (FIN), and what the client
 * still sends is read and discarded for a short grace period, enough for it to read the answer and
 * stop, then the socket is closed. Discarding costs no memory; the grace is bounded in time and bytes.
 */
function drainAfterAnswer(req: IncomingMessage, res: ServerResponse): void {
  res.on("finish", () => {
    if (req.complete || req.destroyed) return;
    req.socket.end();
    const timer = setTimeout(() => req.destroy(), DRAIN_GRACE_MS);
    timer.unref();
    req.socket.once("close", () => clearTimeout(timer));
    let discarded = 0;
    req.on("data", (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > DRAIN_LIMIT_BYTES) req.destroy();
    });
    req.resume();
  });
}

export function toFetchRequest(req: IncomingMessage, res: ServerResponse, url: URL): Request {
  const controller = new AbortController();
  // 'close' on the response fires early for finished responses too; only a premature close aborts.
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  drainAfterAnswer(req, res);
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    if (!HOP_BY_HOP.has(name.toLowerCase())) headers.append(name, req.rawHeaders[i + 1]!);
  }
  const method = req.method ?? "GET";
  const init: RequestInit & { duplex?: "half" } = { method, headers, signal: controller.signal };
  if (method !== "GET" && method !== "HEAD") {
    init.body = bodyStream(req, isUploadPath(url.pathname) ? Infinity : BODY_CEILING_BYTES);
    init.duplex = "half";
  }
  return new Request(url, init);
}

/**
 * The request body as a web stream with backpressure, failing once more than `ceiling` bytes arrived.
 * Unlike Readable.toWeb, cancelling it (a handler that refuses a body without reading it) only stops
 * reading: destroying the request would close the socket and cut off the answer the handler is about
 * to send.
 */
function bodyStream(req: IncomingMessage, ceiling: number): ReadableStream<Uint8Array> {
  let cancelled = false;
  let settled = false;
  let received = 0;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      req.on("data", (chunk: Buffer) => {
        if (cancelled || settled) return;
        received += chunk.length;
        if (received > ceiling) {
          // Stop reading as a cancel does; the drain after the answer deals with the rest.
          settled = true;
          req.pause();
          // Named, so the action's body reader answers 413 (too large), not 400 (unreadable).
          const error = new Error("The request body is too large.");
          error.name = "PayloadTooLargeError";
          controller.error(error);
          return;
        }
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) req.pause();
      });
      req.on("end", () => {
        if (!cancelled && !settled) controller.close();
        settled = true;
      });
      req.on("error", (error) => {
        if (!cancelled && !settled) controller.error(error);
        settled = true;
      });
      // A client that hangs up mid-upload: end the read with an error rather than leave it waiting.
      req.on("close", () => {
        if (!cancelled && !settled) controller.error(new Error("The request body was cut off."));
        settled = true;
      });
    },
    pull() {
      req.resume();
    },
    cancel() {
      cancelled = true;
      req.pause();
    },
  });
}

export async function sendFetchResponse(req: IncomingMessage, res: ServerResponse, response: Response): Promise<void> {
  if (response.body && req.method !== "HEAD" && response.headers.get("content-type")?.startsWith("text/html")) {
    await sendDocument(req, res, response);
    return;
  }
  writeHead(req, res, response, response.headers);
  const writeDirectly = req.method === "HEAD" ? undefined : takeDirectWriter(response);
  if (writeDirectly) {
    // A live-update stream writes to the socket itself until it or the browser ends it.
    res.flushHeaders();
    writeDirectly(res);
    return;
  }
  if (!response.body || req.method === "HEAD") {
    res.end();
    return;
  }
  try {
    await pipeline(Readable.fromWeb(response.body as never), res);
  } catch (error) {
    // The client went away mid-stream: nothing to answer to.
    if ((error as NodeJS.ErrnoException).code !== "ERR_STREAM_PREMATURE_CLOSE") throw error;
  }
}

/** An HTML document: read whole (it was rendered whole), compressed in one call, sent in one write. */
async function sendDocument(req: IncomingMessage, res: ServerResponse, response: Response): Promise<void> {
  const bytes = takeDocumentBytes(response) ?? Buffer.from(await response.arrayBuffer());
  const encoded = encodeDocument(bytes, req.headers["accept-encoding"]);
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  if (encoded.encoding) {
    // Set before the first write, it also tells the compression middleware to leave the body alone.
    headers.set("content-encoding", encoded.encoding);
    headers.append("vary", "Accept-Encoding");
  }
  headers.set("content-length", String(encoded.body.length));
  writeHead(req, res, response, headers);
  res.end(encoded.body);
}

function writeHead(req: IncomingMessage, res: ServerResponse, response: Response, headers: Headers): void {
  const raw: string[] = [];
  // An answer sent before the request's body was read (a refusal: wrong origin, not signed in) is
  // followed by closing the connection (drainAfterAnswer). Say so in the answer: a client that kept the
  // connection for its next request would have it cut off ("other side closed", seen in CI).
  if (!req.complete) raw.push("connection", "close");
  // Set-Cookie must stay separate headers; Headers joins other repeated values, which is fine.
  for (const [name, value] of headers) {
    if (name === "set-cookie") continue;
    raw.push(name, value);
  }
  for (const cookie of headers.getSetCookie()) raw.push("set-cookie", cookie);
  if (response.statusText) res.writeHead(response.status, response.statusText, raw);
  else res.writeHead(response.status, raw);
}
