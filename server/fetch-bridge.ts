import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

/**
 * Node request -> Fetch Request -> our handler -> Node response. Ours rather than React Router's
 * listener so the load context is built from the Node request itself (the CSP nonce, the client IP)
 * and the response body is piped with backpressure.
 */

const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade"]);

export function toFetchRequest(req: IncomingMessage, res: ServerResponse, secure: boolean): Request {
  const controller = new AbortController();
  // 'close' on the response fires early for finished responses too; only a premature close aborts.
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
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
    init.body = Readable.toWeb(req) as ReadableStream<Uint8Array>;
    init.duplex = "half";
  }
  return new Request(url, init);
}

export async function sendFetchResponse(req: IncomingMessage, res: ServerResponse, response: Response): Promise<void> {
  const raw: string[] = [];
  // Set-Cookie must stay separate headers; Headers joins other repeated values, which is fine.
  for (const [name, value] of response.headers) {
    if (name === "set-cookie") continue;
    raw.push(name, value);
  }
  for (const cookie of response.headers.getSetCookie()) raw.push("set-cookie", cookie);
  if (response.statusText) res.writeHead(response.status, response.statusText, raw);
  else res.writeHead(response.status, raw);
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
