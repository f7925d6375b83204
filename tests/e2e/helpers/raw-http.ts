import http from "node:http";

/**
 * One request on its own connection (node:http, no keep-alive). A server may answer a refusal before
 * reading the whole body and then drop the connection; fetch() would report that as a network error
 * (or on the next request that reuses the socket), while this keeps the answer the server gave.
 */

export type RawAnswer = { status: number; contentType: string; headers: http.IncomingHttpHeaders; body: string };

/** Serializes any fetch body (FormData, URLSearchParams, string, Blob) the way fetch would. */
export async function encodeBody(body: BodyInit | undefined): Promise<{ bytes: Buffer; type: string | null }> {
  if (body === undefined) return { bytes: Buffer.alloc(0), type: null };
  const req = new Request("http://encode.invalid/", { method: "POST", body });
  return { bytes: Buffer.from(await req.arrayBuffer()), type: req.headers.get("content-type") };
}

export function rawRequest(url: string, init: { method?: string; headers?: Record<string, string>; body?: Buffer }): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: init.method ?? "GET", headers: { ...init.headers, "content-length": String(init.body?.length ?? 0) }, agent: false });
    let answered = false;
    req.on("response", (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on("data", (d: Buffer) => chunks.push(d));
      res.on("error", () => undefined);
      res.on("close", () =>
        resolve({ status: res.statusCode ?? 0, contentType: String(res.headers["content-type"] ?? ""), headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }),
      );
    });
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    req.end(init.body);
  });
}
