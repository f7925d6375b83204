import { createHash } from "node:crypto";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { PUBLIC_PAGES } from "~/content/seo";
import { signUpOverHttp } from "../helpers/applicants";
import { waitForHydration } from "./harness";
import { e2eStackForFile } from "./helpers/stack";

/**
 * Near-static public pages are served from rendered bytes (issue #8): the same bytes for every
 * anonymous visitor, a CSP that allows exactly their inline scripts by hash, compressed forms made
 * once, revalidation with ETags — while signed-in visitors and anything with a query are rendered
 * for their sender.
 */

const stack = e2eStackForFile({ env: { TRUST_PROXY: "true" } });

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${stack.server.url}${path}`, { headers });
const inlineScripts = (html: string) =>
  [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)].filter((m) => !/\bsrc\s*=/.test(m[1]!)).map((m) => m[2]!);

describe("public page cache", () => {
  it("serves every public page from the cache, its inline scripts allowed by hash and no nonce", async () => {
    for (const { path } of PUBLIC_PAGES) {
      await (await get(path)).arrayBuffer(); // the first visit renders
      const res = await get(path);
      const html = await res.text();
      expect(res.status, path).toBe(200);
      expect(res.headers.get("x-page-cache"), path).toBe("hit");
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp, path).not.toContain("'nonce-");
      expect(csp, path).not.toContain("unsafe-inline' 'sha"); // scripts never get 'unsafe-inline'
      expect(csp, path).toMatch(/frame-ancestors 'none'/);
      expect(html, path).not.toMatch(/\snonce="/);
      const scripts = inlineScripts(html);
      expect(scripts.length, path).toBeGreaterThan(0);
      for (const script of scripts) {
        const hash = createHash("sha256").update(script, "utf8").digest("base64");
        expect(csp, `${path}: a script without its hash in the CSP`).toContain(`'sha256-${hash}'`);
      }
      expect(res.headers.get("cache-control")).toBe("no-cache");
      expect(res.headers.get("vary")).toMatch(/Cookie/);
    }
  });

  it("sends the same page compressed with brotli or gzip, and a 304 for a page the browser holds", async () => {
    const plain = await get("/about");
    const text = await plain.text();
    const etag = plain.headers.get("etag")!;
    expect(etag).toMatch(/^W\/"p-/);

    const br = await new Promise<{ encoding?: string; body: Buffer }>((resolve, reject) => {
      // fetch() would decode by itself; read the raw bytes to prove they are what the header says.
      import("node:http").then(({ get: httpGet }) =>
        httpGet(`${stack.server.url}/about`, { headers: { "accept-encoding": "br" } }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ encoding: res.headers["content-encoding"], body: Buffer.concat(chunks) }));
        }).on("error", reject),
      );
    });
    expect(br.encoding).toBe("br");
    expect(zlib.brotliDecompressSync(br.body).toString("utf8")).toBe(text);
    expect(br.body.length).toBeLessThan(text.length / 4);

    const again = await get("/about", { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect((await get("/about", { "if-none-match": 'W/"p-other"' })).status).toBe(200);
  });

  it("renders requests with a query, other methods and private pages for their sender, with a nonce", async () => {
    for (const res of [await get("/?utm_source=mail"), await get("/dashboard"), await get("/apply")]) {
      expect(res.headers.get("x-page-cache")).toBeNull();
      expect(res.headers.get("content-security-policy")).toMatch(/'nonce-[A-Za-z0-9+/=]+'/);
      await res.arrayBuffer();
    }
    // A contact message is still an action, never a cached page.
    const post = await fetch(`${stack.server.url}/contact`, { method: "POST", headers: { origin: stack.server.url }, body: new URLSearchParams({}) });
    expect(post.headers.get("x-page-cache")).toBeNull();
    expect(post.status).toBe(400);
  });

  it("shows a signed-in visitor their own header, never the cached one", async () => {
    const cookie = await signUpOverHttp(stack.server.url, stack.sink, "carla.cache@example.com", "198.18.44.1");
    const anonymous = await (await get("/")).text();
    expect(anonymous).toContain("Apply Now");
    expect(anonymous).not.toContain("Sign Out");

    const res = await get("/", { cookie });
    const html = await res.text();
    expect(res.headers.get("x-page-cache")).toBeNull();
    expect(html).toContain("Sign Out");
    expect(html).toContain("Dashboard");

    // The visitor's pages in a browser: their header on a cached path, the anonymous one after signing out.
    const context = await stack.browser.newContext();
    try {
      const [name, ...rest] = cookie.split("=");
      await context.addCookies([{ name: name!, value: rest.join("="), url: stack.server.url }]);
      const page = await context.newPage();
      await page.goto(`${stack.server.url}/about`);
      await page.getByRole("button", { name: "Sign Out" }).first().waitFor();
    } finally {
      await context.close();
    }
  });

  it("hydrates in the browser under the hash-based CSP: no violations, client navigation and the calculator work", async () => {
    const context = await stack.browser.newContext();
    const problems: string[] = [];
    try {
      const page = await context.newPage();
      page.on("console", (m) => {
        if (m.type() === "error" || m.type() === "warning") problems.push(m.text());
      });
      page.on("pageerror", (e) => problems.push(e.message));
      const res = await page.goto(`${stack.server.url}/`);
      expect(res?.headers()["x-page-cache"]).toBe("hit");
      // Scripts load after the first paint: a click before hydration would load /calculator as a new
      // document, and a fill before that one hydrates is lost (a CI run read the default's payment).
      await waitForHydration(page);
      const navigationsBefore = await page.evaluate(() => performance.getEntriesByType("navigation").length + performance.timeOrigin);
      await page.getByRole("navigation").getByRole("link", { name: "Calculator" }).first().click();
      await page.waitForURL("**/calculator");
      // Same document (client-side navigation): the page's time origin did not change.
      expect(await page.evaluate(() => performance.getEntriesByType("navigation").length + performance.timeOrigin)).toBe(navigationsBefore);
      // A new amount recomputes the payment in the browser: proof the page hydrated. One input event
      // (fill): keystroke by keystroke, the caret handling of the formatted field raced the test's
      // typing on a loaded machine (a CI run read "$205,166,339.10").
      // The home page has a calculator too: wait until the calculator page's own heading is drawn, so
      // the fill reaches its field and not the home page's one while the navigation commits (a CI run
      // read the default's payment: the fill had gone to the outgoing page).
      await page.getByRole("heading", { level: 1, name: "Loan Calculator" }).waitFor();
      const amount = page.getByLabel("Loan Amount");
      await expect.poll(() => amount.count()).toBe(1);
      await amount.fill("100000");
      await expect.poll(() => page.getByTestId("monthly-payment").textContent()).toBe("$2,051.65");
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
