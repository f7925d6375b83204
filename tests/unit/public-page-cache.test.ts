import { createHash } from "node:crypto";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { chooseEncoding, PublicPageCache, toCachedPage, type PageRender } from "~/server/platform/http/public-page-cache.server";

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("base64");

function page(nonce: string, extra = ""): string {
  return `<!DOCTYPE html><html><head><script nonce="${nonce}">window.a = "é";</script>
<script type="module" nonce="${nonce}">import "/assets/entry.js";</script>
<script src="/assets/x.js" nonce="${nonce}"></script></head><body>${extra}<p>Hello</p></body></html>`;
}

const html = (body: string, init: ResponseInit = {}) =>
  new Response(body, { status: 200, ...init, headers: { "Content-Type": "text/html; charset=utf-8", ...(init.headers ?? {}) } });

describe("toCachedPage", () => {
  it("strips the render's nonce and lists the SHA-256 of each inline script, not of external ones", async () => {
    const cached = await toCachedPage("/", html(page("n0nce")), "n0nce", 1);
    const text = cached.bodies.identity.toString("utf8");
    expect(text).not.toContain("nonce");
    expect(cached.scriptHashes.sort()).toEqual([sha256('window.a = "é";'), sha256('import "/assets/entry.js";')].sort());
    expect(zlib.gunzipSync(cached.bodies.gzip).toString("utf8")).toBe(text);
    expect(zlib.brotliDecompressSync(cached.bodies.br).toString("utf8")).toBe(text);
    expect(cached.etag).toMatch(/^W\/"p-[\w-]{22}"$/);
    expect(cached.contentType).toBe("text/html; charset=utf-8");
  });

  it("gives different bytes different ETags", async () => {
    const a = await toCachedPage("/", html(page("Zq9xY")), "Zq9xY", 1);
    const b = await toCachedPage("/", html(page("Zq9xY", "<p>changed</p>")), "Zq9xY", 1);
    expect(a.etag).not.toBe(b.etag);
  });

  it("refuses pages that are not plain, shared HTML", async () => {
    await expect(toCachedPage("/", html(page("Zq9xY"), { status: 404 }), "Zq9xY", 1)).rejects.toThrow(/status 404/);
    await expect(toCachedPage("/", html(page("Zq9xY"), { headers: { "Set-Cookie": "pl_toast=1" } }), "Zq9xY", 1)).rejects.toThrow(/cookie/);
    await expect(toCachedPage("/", new Response("{}", { headers: { "Content-Type": "application/json" } }), "Zq9xY", 1)).rejects.toThrow(
      /content type/,
    );
    // A nonce that leaked into the content would be shared by every visitor.
    await expect(toCachedPage("/", html(page("n0nce", "<p>n0nce</p>")), "n0nce", 1)).rejects.toThrow(/nonce appears/);
  });
});

describe("chooseEncoding", () => {
  it.each([
    [undefined, "identity"],
    ["", "identity"],
    ["gzip, deflate, br", "br"],
    ["gzip", "gzip"],
    ["br;q=0, gzip;q=0.5", "gzip"],
    ["gzip;q=0", "identity"],
    ["*", "br"],
    ["*;q=0, identity", "identity"],
    ["deflate", "identity"],
  ])("%j → %s", (header, expected) => {
    expect(chooseEncoding(header)).toBe(expected);
  });
});

function setup(opts: { ttlMs?: number; render?: PageRender } = {}) {
  let clock = 1000;
  let renders = 0;
  let version = 1;
  const render: PageRender =
    opts.render ??
    (async (path, nonce) => {
      renders += 1;
      return html(page(nonce, `<h1>${path} v${version}</h1>`));
    });
  const cache = new PublicPageCache({ paths: ["/", "/about"], render, ttlMs: opts.ttlMs ?? 60_000, now: () => clock });
  return {
    cache,
    renders: () => renders,
    tick: (ms: number) => (clock += ms),
    bump: () => (version += 1),
  };
}

const text = (p: { bodies: { identity: Buffer } } | null) => p?.bodies.identity.toString("utf8") ?? "";

describe("PublicPageCache", () => {
  it("answers only anonymous GET and HEAD requests for listed paths without a query", () => {
    const { cache } = setup();
    expect(cache.match({ method: "GET", url: "/", headers: {} })).toBe("/");
    expect(cache.match({ method: "HEAD", url: "/about", headers: {} })).toBe("/about");
    expect(cache.match({ method: "POST", url: "/", headers: {} })).toBeNull();
    expect(cache.match({ method: "GET", url: "/?ref=mail", headers: {} })).toBeNull();
    expect(cache.match({ method: "GET", url: "/about/", headers: {} })).toBeNull();
    expect(cache.match({ method: "GET", url: "/dashboard", headers: {} })).toBeNull();
    expect(cache.match({ method: "GET", url: "/", headers: { cookie: "pl.session_token=abc" } })).toBeNull();
  });

  it("renders a page once for many concurrent visitors", async () => {
    const { cache, renders } = setup();
    const pages = await Promise.all(Array.from({ length: 20 }, () => cache.get("/")));
    expect(renders()).toBe(1);
    expect(new Set(pages.map((p) => p?.etag)).size).toBe(1);
    expect(text(pages[0]!)).toContain("<h1>/ v1</h1>");
  });

  it("serves a stale page while rendering the next one after the TTL", async () => {
    const { cache, renders, tick, bump } = setup({ ttlMs: 1000 });
    await cache.get("/");
    bump();
    tick(1500);
    expect(text(await cache.get("/"))).toContain("v1"); // stale, while v2 renders
    await new Promise((r) => setTimeout(r, 20));
    expect(text(await cache.get("/"))).toContain("v2");
    expect(renders()).toBe(2);
  });

  it("peek hands a held page over without waiting, starts nothing for a page not held, and refreshes a stale one", async () => {
    const { cache, renders, tick, bump } = setup({ ttlMs: 1000 });
    expect(cache.peek("/")).toBeNull();
    expect(renders()).toBe(0); // a miss is the caller's to fill (get), not peek's
    await cache.get("/");
    expect(text(cache.peek("/"))).toContain("v1");
    expect(renders()).toBe(1);
    bump();
    tick(1500);
    expect(text(cache.peek("/"))).toContain("v1"); // stale, while v2 renders
    await new Promise((r) => setTimeout(r, 20));
    expect(text(cache.peek("/"))).toContain("v2");
    expect(renders()).toBe(2);
    cache.invalidate();
    expect(cache.peek("/")).toBeNull();
  });

  it("forgets everything on invalidate, including a render that was running", async () => {
    let release: (() => void) | undefined;
    let version = 1;
    const cache = new PublicPageCache({
      paths: ["/"],
      ttlMs: 60_000,
      render: async (_path, nonce) => {
        const v = version;
        if (v === 1) await new Promise<void>((r) => (release = r));
        return html(page(nonce, `<h1>v${v}</h1>`));
      },
    });
    const first = cache.get("/");
    await new Promise((r) => setTimeout(r, 5));
    version = 2;
    cache.invalidate();
    release!();
    expect(text(await first)).toContain("v1"); // that visitor still gets an answer...
    expect(text(await cache.get("/"))).toContain("v2"); // ...but it was not kept
  });

  it("does not cache a failed render and tries again on the next visit", async () => {
    let fail = true;
    const cache = new PublicPageCache({
      paths: ["/"],
      ttlMs: 60_000,
      render: async (_path, nonce) => (fail ? html("oops", { status: 500 }) : html(page(nonce))),
    });
    expect(await cache.get("/")).toBeNull();
    expect(cache.size).toBe(0);
    fail = false;
    expect(await cache.get("/")).not.toBeNull();
    expect(cache.size).toBe(1);
  });

  it("survives a render that throws", async () => {
    const logs: string[] = [];
    const cache = new PublicPageCache({
      paths: ["/"],
      ttlMs: 60_000,
      log: (l) => logs.push(l),
      render: () => {
        throw new Error("database down");
      },
    });
    expect(await cache.get("/")).toBeNull();
    expect(logs.join("\n")).toMatch(/database down/);
  });
});
