import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { encodeDocument } from "./document-encoding";

/**
 * Node request -> Fetch Request -> our handler -> Node response. Ours rather than React Router's
 * listener so the load context is built from the Node request itself (the CSP nonce, the client IP)
 * and the response body is piped with backpressure.
 */

const DRAIN_LIMIT_BYTES = 1024 * 1024;
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade"]);

export function toFetchRequest(req: IncomingMessage, res: ServerResponse, secure: boolean): Request {
  const controller = new AbortController();
  // 'close' on the response fires early for finished responses too; only a premature close aborts.
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  // A refusal (413, 400) may be sent before the body was read. Closing a socket with unread bytes
  // makes the kernel send a reset, which can destroy the answer before the client reads it: discard
  // up to 1 MB of the rest so the client sees the message, then give up on bigger uploads.
  res.on("finish", () => {
    if (req.complete || req.destroyed) return;
    let discarded = 0;
    req.on("data", (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > DRAIN_LIMIT_BYTES) req.destroy();
    });
    req.resume();
  });
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    if (!HOP_BY_HOP.has(name.toLowerCase())) headers.append(name, req.rawHeaders[i + 1]!);
  }
  const host = headers.get("host") ?? "localhost";
  const url = new URL(req.url ?? "/", `${secure ? "https" : "http"}://${host}`);
  const method = req.method ?? "GET";
  const init: RequestInit & { duplex?: "half" } = { method, headers, signal: controller.signal };
  if (method !== "GET" && method !== "HEAD") {
    init.body = bodyStream(req);
    init.duplex = "half";
  }
  return new Request(url, init);
}

/**
 * The request body as a web stream with backpressure. Unlike Readable.toWeb, cancelling it (a handler
 * that refuses a body without reading it) only stops reading: destroying the request would close the
 * socket and cut off the answer the handler is about to send.
 */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let cancelled = false;
  let settled = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      req.on("data", (chunk: Buffer) => {
        if (cancelled) return;
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
  writeHead(res, response, response.headers);
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
  const encoded = encodeDocument(Buffer.from(await response.arrayBuffer()), req.headers["accept-encoding"]);
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  if (encoded.encoding) {
    // Set before the first write, it also tells the compression middleware to leave the body alone.
    headers.set("content-encoding", encoded.encoding);
    headers.append("vary", "Accept-Encoding");
  }
  headers.set("content-length", String(encoded.body.length));
  writeHead(res, response, headers);
  res.end(encoded.body);
}

function writeHead(res: ServerResponse, response: Response, headers: Headers): void {
  const raw: string[] = [];
  // Set-Cookie must stay separate headers; Headers joins other repeated values, which is fine.
  for (const [name, value] of headers) {
    if (name === "set-cookie") continue;
    raw.push(name, value);
  }
  for (const cookie of headers.getSetCookie()) raw.push("set-cookie", cookie);
  if (response.statusText) res.writeHead(response.status, response.statusText, raw);
  else res.writeHead(response.status, raw);
}
