import { createHash, randomBytes } from "node:crypto";
import { promisify } from "node:util";
import zlib from "node:zlib";

/**
 * Public pages that are the same for every anonymous visitor are rendered once and kept as bytes
 * (plain, gzip and brotli), so serving one is a header write and a buffer copy instead of a React
 * render. Everything that makes a page personal travels in cookies, so a request carrying any cookie
 * is never answered from here (a signed-in visitor sees their own header).
 *
 * The enforced CSP keeps working: the page is rendered with a throw-away nonce that is then stripped,
 * and the cached entry carries the SHA-256 hashes of its inline scripts for the CSP header. One set of
 * bytes for everyone is also what lets the compressed forms be made once (a per-request nonce inside
 * the HTML would force a compression per response).
 */

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

export type CachedPage = {
  path: string;
  etag: string;
  contentType: string;
  /** Base64 SHA-256 of each inline script, as CSP hash sources want them. */
  scriptHashes: string[];
  bodies: { identity: Buffer; gzip: Buffer; br: Buffer };
  renderedAt: number;
};

export type PageRender = (path: string, nonce: string) => Promise<Response>;

export type PublicPageCacheOptions = {
  paths: Iterable<string>;
  render: PageRender;
  /** How long an entry is served before it is rendered again (stale entries are served meanwhile). */
  ttlMs: number;
  now?: () => number;
  log?: (line: string) => void;
};

export type CacheableRequest = { method?: string; url?: string; headers: { cookie?: string | undefined } };

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;

/** Why a rendered page cannot be cached; the request is then rendered normally. */
export class UncacheablePage extends Error {}

export async function toCachedPage(path: string, response: Response, nonce: string, renderedAt: number): Promise<CachedPage> {
  if (response.status !== 200) throw new UncacheablePage(`status ${response.status}`);
  if (response.headers.getSetCookie().length > 0) throw new UncacheablePage("the render set a cookie");
  const contentType = response.headers.get("content-type") ?? "";
  if (!contentType.startsWith("text/html")) throw new UncacheablePage(`content type ${contentType || "missing"}`);

  const html = (await response.text()).replaceAll(` nonce="${nonce}"`, "");
  // The nonce anywhere else (say, serialized into data) would be a secret shared by every visitor.
  if (html.includes(nonce)) throw new UncacheablePage("the nonce appears outside script attributes");

  const scriptHashes = new Set<string>();
  for (const match of html.matchAll(INLINE_SCRIPT)) {
    if (/\bsrc\s*=/i.test(match[1] ?? "")) continue;
    scriptHashes.add(createHash("sha256").update(match[2] ?? "", "utf8").digest("base64"));
  }

  const identity = Buffer.from(html, "utf8");
  const [gz, br] = await Promise.all([
    gzip(identity, { level: 9 }),
    brotli(identity, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT },
    }),
  ]);
  const etag = `W/"p-${createHash("sha256").update(identity).digest("base64url").slice(0, 22)}"`;
  return { path, etag, contentType, scriptHashes: [...scriptHashes], bodies: { identity, gzip: gz, br }, renderedAt };
}

/** The encoding to send for an Accept-Encoding header: brotli, then gzip, else the plain bytes. */
export function chooseEncoding(acceptEncoding: string | undefined): "br" | "gzip" | "identity" {
  if (!acceptEncoding) return "identity";
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(",")) {
    const [name, ...params] = part.trim().split(";");
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
    if (name) accepted.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const weight = (name: string) => accepted.get(name) ?? (accepted.has("*") ? accepted.get("*")! : 0);
  if (weight("br") > 0) return "br";
  if (weight("gzip") > 0) return "gzip";
  return "identity";
}

export class PublicPageCache {
  private readonly paths: Set<string>;
  private readonly entries = new Map<string, CachedPage>();
  private readonly filling = new Map<string, Promise<CachedPage | null>>();
  /** Bumped by invalidate(): a render that started before it is not stored. */
  private generation = 0;
  private readonly now: () => number;
  private readonly log: (line: string) => void;

  constructor(private readonly options: PublicPageCacheOptions) {
    this.paths = new Set(options.paths);
    this.now = options.now ?? Date.now;
    this.log = options.log ?? (() => {});
  }

  /** The path to answer from the cache, or null when the request must be rendered for its sender. */
  match(req: CacheableRequest): string | null {
    if (req.method !== "GET" && req.method !== "HEAD") return null;
    if (req.headers.cookie) return null;
    const url = req.url ?? "";
    return this.paths.has(url) ? url : null;
  }

  /** The entry for a path, rendering it on first use; a stale one is returned while a new render runs. */
  async get(path: string): Promise<CachedPage | null> {
    return this.peek(path) ?? this.fill(path);
  }

  /**
   * The entry for a path if one is held (a stale one starts a new render and is returned meanwhile), else
   * null, without waiting: a hit is then served in the same tick as the request, no promise between
   * (public pages are served at the rate of a bare Node server).
   */
  peek(path: string): CachedPage | null {
    const entry = this.entries.get(path);
    if (!entry) return null;
    if (this.now() - entry.renderedAt >= this.options.ttlMs) void this.fill(path);
    return entry;
  }

  /** Forgets every entry (for example after a testimonial is approved); the next visit renders again. */
  invalidate(): void {
    this.generation += 1;
    this.entries.clear();
    this.filling.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private fill(path: string): Promise<CachedPage | null> {
    const running = this.filling.get(path);
    if (running) return running;
    const promise: Promise<CachedPage | null> = this.render(path).finally(() => {
      if (this.filling.get(path) === promise) this.filling.delete(path);
    });
    this.filling.set(path, promise);
    return promise;
  }

  private async render(path: string): Promise<CachedPage | null> {
    const generation = this.generation;
    const nonce = randomBytes(18).toString("base64url");
    try {
      const response = await this.options.render(path, nonce);
      const page = await toCachedPage(path, response, nonce, this.now());
      if (generation === this.generation) this.entries.set(path, page);
      return page;
    } catch (error) {
      this.log(`[page-cache] ${path} rendered without caching: ${(error as Error).message}`);
      return null;
    }
  }
}

let current: PublicPageCache | undefined;

/** The running server's cache (none in development or when PAGE_CACHE_SECONDS=0). */
export function setPublicPageCache(cache: PublicPageCache | undefined): void {
  current = cache;
}

/**
 * Called after a change that shows on public pages (an approved testimonial). Other instances pick the
 * change up when their entries expire (PAGE_CACHE_SECONDS).
 */
export function invalidatePublicPageCache(): void {
  current?.invalidate();
}
