import type { IncomingMessage, ServerResponse } from "node:http";
import { chooseEncoding, type CachedPage } from "~/server/platform/http/public-page-cache.server";

/** True when the client already holds these bytes (If-None-Match lists the page's ETag or *). */
function notModified(req: IncomingMessage, etag: string): boolean {
  const header = req.headers["if-none-match"];
  if (!header) return false;
  const bare = etag.replace(/^W\//, "");
  return header.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t.replace(/^W\//, "") === bare;
  });
}

type Encoding = keyof CachedPage["bodies"];

/**
 * Writes pages from the public page cache. The full header list of each page, per scheme and
 * encoding, is built once: serving a hit is then one writeHead and one write, which is what lets a
 * single Node process keep up with a static file server (see bench/public-pages.bench.ts).
 */
export function createCachedPageSender(securityHeadersFor: (page: CachedPage, secure: boolean) => Record<string, string>) {
  const built = new WeakMap<CachedPage, Map<string, string[]>>();

  function headersFor(page: CachedPage, secure: boolean, encoding: Encoding | "not-modified"): string[] {
    let perPage = built.get(page);
    if (!perPage) built.set(page, (perPage = new Map()));
    const key = `${secure}:${encoding}`;
    let list = perPage.get(key);
    if (!list) {
      list = Object.entries(securityHeadersFor(page, secure)).flat();
      // Revalidated on every visit (cheap: a 304), and never reused for a request that carries cookies.
      list.push("Cache-Control", "no-cache", "Vary", "Accept-Encoding, Cookie", "ETag", page.etag, "X-Page-Cache", "hit");
      if (encoding !== "not-modified") {
        list.push("Content-Type", page.contentType, "Content-Length", String(page.bodies[encoding].length));
        if (encoding !== "identity") list.push("Content-Encoding", encoding);
      }
      perPage.set(key, list);
    }
    return list;
  }

  return function sendCachedPage(req: IncomingMessage, res: ServerResponse, page: CachedPage, opts: { secure: boolean; closing: boolean }): void {
    if (opts.closing) res.setHeader("Connection", "close");
    if (notModified(req, page.etag)) {
      res.writeHead(304, headersFor(page, opts.secure, "not-modified"));
      res.end();
      return;
    }
    const encoding = chooseEncoding(req.headers["accept-encoding"]);
    res.writeHead(200, headersFor(page, opts.secure, encoding));
    if (req.method === "HEAD") res.end();
    else res.end(page.bodies[encoding]);
  };
}
