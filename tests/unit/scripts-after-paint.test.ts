import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { INERT_TYPE, scriptsAfterFirstPaint as rewriteBytes } from "~/server/platform/http/scripts-after-paint.server";

/** The rewrite works on the rendered bytes; these tests read and write text. */
const scriptsAfterFirstPaint = (html: string) => rewriteBytes(Buffer.from(html, "utf8")).toString("utf8");

// The shape React Router 7.18's <Scripts> renders, with a nonce (per-request pages) or without (cached pages).
const routeModules = ';\nimport * as route0 from "/assets/root-1.js";\nwindow.__reactRouterRouteModules = {"root":route0};\n\nimport("/assets/entry.client-1.js");';
function documentWith(nonce: string | null) {
  const n = nonce === null ? "" : ` nonce="${nonce}"`;
  return (
    `<html><head><meta charset="utf-8"/><link rel="stylesheet" href="/assets/app.css"/>` +
    `<link rel="modulepreload" href="/assets/entry.client-1.js"${n}/><link rel="modulepreload" href="/assets/root-1.js"${n}/>` +
    `<link rel="modulepreload" href="/assets/entry.client-1.js"${n}/></head><body><main>Ünïcødé €</main>` +
    `<script${n}>window.__reactRouterContext = {};</script><script${n} type="module" async="">${routeModules}</script>` +
    `<script${n}>window.__reactRouterContext.streamController.close();</script></body></html>`
  );
}

/** Runs the loader the rewrite adds, against a minimal DOM, and reports what it did to the document. */
function runLoader(html: string, env: { visibility?: string; paintTiming?: boolean } = {}) {
  const loader = /<script(?: nonce="[^"]*")?>(\(function\(\)\{var me=[\s\S]*?)<\/script>/.exec(html)![1]!;
  const inert = { nonce: "n0nce", textContent: routeModules, parentNode: null as unknown };
  const head: unknown[] = [];
  const body = {
    replaced: null as null | { old: unknown; created: Record<string, unknown> },
    removed: [] as unknown[],
    replaceChild(created: Record<string, unknown>, old: unknown) {
      this.replaced = { old, created };
    },
    removeChild(node: unknown) {
      this.removed.push(node);
    },
  };
  inert.parentNode = body;
  const me = { previousElementSibling: inert, parentNode: body };
  const timers: { fn: () => void; ms: number }[] = [];
  let paintCallback: ((list: { getEntriesByName: (n: string) => unknown[] }, observer: { disconnect: () => void }) => void) | null = null;
  const context = {
    document: {
      currentScript: me,
      visibilityState: env.visibility ?? "visible",
      head: { appendChild: (l: unknown) => head.push(l) },
      createElement: (tag: string) => ({ tag }),
    },
    window: {} as Record<string, unknown>,
    setTimeout: (fn: () => void, ms: number) => timers.push({ fn, ms }),
    requestAnimationFrame: (fn: () => void) => timers.push({ fn, ms: -1 }),
  };
  if (env.paintTiming !== false) {
    const Observer = function (this: unknown, cb: typeof paintCallback) {
      paintCallback = cb;
    } as unknown as { supportedEntryTypes: string[] };
    (Observer as unknown as { prototype: object }).prototype = { observe() {} };
    Observer.supportedEntryTypes = ["paint", "navigation"];
    context.window.PerformanceObserver = Observer;
  }
  vm.runInNewContext(loader, context);
  return {
    head,
    body,
    me,
    timers,
    paint: () => paintCallback?.({ getEntriesByName: (n) => (n === "first-contentful-paint" ? [{}] : []) }, { disconnect() {} }),
  };
}

describe("scriptsAfterFirstPaint", () => {
  it("takes the module preloads out of the head and makes the route modules script inert", () => {
    const out = scriptsAfterFirstPaint(documentWith("abc"));
    expect(out).not.toContain('<link rel="modulepreload"');
    expect(out).toContain('<link rel="stylesheet" href="/assets/app.css"/>');
    expect(out).toContain(`<script nonce="abc" type="${INERT_TYPE}">${routeModules}</script><script nonce="abc">(function(){`);
    expect(out).not.toContain('type="module"');
    expect(out).toContain("<main>Ünïcødé €</main>");
    // Each preload once, in document order.
    expect(out).toContain('hrefs=["/assets/entry.client-1.js","/assets/root-1.js"]');
  });

  it("adds no nonce where the page has none (cached pages are allowed by script hashes)", () => {
    const out = scriptsAfterFirstPaint(documentWith(null));
    expect(out).toContain(`<script type="${INERT_TYPE}">`);
    expect(out).toMatch(/<\/script><script>\(function\(\)\{var me=/);
    expect(out).not.toContain(" nonce=");
  });

  it("waits for the first contentful paint, then adds the preloads and swaps in a live module script", () => {
    const run = runLoader(scriptsAfterFirstPaint(documentWith("abc")));
    // The loader removes itself at once, so React never meets it while hydrating.
    expect(run.body.removed).toEqual([run.me]);
    expect(run.head).toHaveLength(0);
    expect(run.body.replaced).toBeNull();
    // Only the 3 s safety timer is armed before the paint.
    expect(run.timers.map((t) => t.ms)).toEqual([3000]);

    run.paint();
    expect(run.timers.map((t) => t.ms)).toEqual([3000, 0]);
    run.timers[1]!.fn();
    expect(run.head).toEqual([
      { tag: "link", rel: "modulepreload", href: "/assets/entry.client-1.js" },
      { tag: "link", rel: "modulepreload", href: "/assets/root-1.js" },
    ]);
    expect(run.body.replaced?.old).toBe(run.me.previousElementSibling);
    expect(run.body.replaced?.created).toEqual({ tag: "script", type: "module", async: true, nonce: "n0nce", textContent: routeModules });

    // The safety timer firing later does not load the page a second time.
    run.timers[0]!.fn();
    expect(run.head).toHaveLength(2);
  });

  it("loads at once in a hidden tab, which never paints", () => {
    const run = runLoader(scriptsAfterFirstPaint(documentWith(null)), { visibility: "hidden" });
    expect(run.head).toHaveLength(2);
    expect(run.body.replaced?.created.type).toBe("module");
  });

  it("waits one frame where Paint Timing is missing, and the safety timer loads it if no paint is ever reported", () => {
    const run = runLoader(scriptsAfterFirstPaint(documentWith(null)), { paintTiming: false });
    expect(run.timers.map((t) => t.ms)).toEqual([-1, 3000]);
    run.timers[1]!.fn();
    expect(run.body.replaced?.created.type).toBe("module");
  });

  it("escapes what could close the loader's script element and decodes attribute entities", () => {
    const html = documentWith(null).replace('href="/assets/root-1.js"', 'href="/assets/a&amp;b&lt;/script&gt;.js"');
    const out = scriptsAfterFirstPaint(html);
    expect(out).toContain('"/assets/a&b\\u003c/script>.js"');
    expect(out.match(/<\/script>/g)).toHaveLength(4);
  });

  it("cuts at byte offsets: text of several bytes a character before and after the script survives whole", () => {
    const html = documentWith("abc")
      .replace("<body>", "<body><p>Préstamos — ½ % “tasa” 🏠</p>")
      .replace("</body>", "<p>Señal ✓ 💵</p></body>")
      .replace("</head>", "<title>Café ✓</title></head>");
    const out = scriptsAfterFirstPaint(html);
    expect(out).toContain("<p>Préstamos — ½ % “tasa” 🏠</p>");
    expect(out).toContain("<p>Señal ✓ 💵</p></body>");
    expect(out).toContain("<title>Café ✓</title></head>");
    expect(out).toContain(`type="${INERT_TYPE}"`);
    expect(out).not.toContain("\uFFFD");
    expect(out).not.toContain("\ufffd");
  });

  it("leaves documents it does not recognise as they were", () => {
    const plain = '<html><body><link rel="modulepreload" href="/a.js"/><p>hello</p></body></html>';
    expect(scriptsAfterFirstPaint(plain)).toBe(plain);
    const twice = documentWith(null).replace("</body>", `<script type="module" async="">import "/x.js";</script></body>`);
    expect(scriptsAfterFirstPaint(twice)).toBe(twice);
  });
});
