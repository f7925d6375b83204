import zlib from "node:zlib";
import { chooseEncoding } from "~/server/platform/http/public-page-cache.server";

/**
 * A rendered HTML document is compressed whole, in one call, instead of through the compression
 * middleware's stream: the page is complete before its first byte leaves (entry.server.tsx), and
 * streaming it through zlib cost the event loop a tenth of a signed-in page's time in chunk handling.
 * Brotli at quality 1 makes the 160 KB admin list as small as gzip's default level does (16 KB) in
 * a seventh of the time (0.3 ms against 1.8 ms, measured here); gzip at level 1 for the few browsers
 * without brotli. The public pages are compressed at the highest levels once, by their cache.
 */

/** Below this, compressing costs more than the bytes it saves (the middleware's threshold too). */
const MIN_BYTES = 1024;
const BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT } };

export function encodeDocument(body: Buffer, acceptEncoding: string | undefined): { body: Buffer; encoding: "br" | "gzip" | null } {
  const encoding = body.length < MIN_BYTES ? "identity" : chooseEncoding(acceptEncoding);
  if (encoding === "br") return { body: zlib.brotliCompressSync(body, BROTLI), encoding };
  if (encoding === "gzip") return { body: zlib.gzipSync(body, { level: 1 }), encoding };
  return { body, encoding: null };
}
