import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { gotoHydrated } from "./harness";
import { e2eStackForFile } from "./helpers/stack";

/**
 * Decision 0021: pages paint from the server's HTML before any script is fetched, then hydrate in
 * place. Checked on a cached public page (CSP by script hashes) and on a per-request page (CSP by nonce).
 */

const stack = e2eStackForFile({ mail: false });

type Observed = { problems: string[] };

async function openPage(path: string): Promise<{ page: Page; observed: Observed }> {
  const context = await stack.browser.newContext();
  const page = await context.newPage();
  const observed: Observed = { problems: [] };
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") observed.problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => observed.problems.push(`page error: ${e.message}`));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => console.error(`CSP blocked ${e.blockedURI} (${e.violatedDirective})`));
    // Marks the server-rendered <main> before any script of the page runs: a page that React
    // re-rendered instead of hydrating has a new <main> without the mark.
    document.addEventListener("DOMContentLoaded", () => {
      (document.querySelector("main") as HTMLElement & { serverRendered?: boolean }).serverRendered = true;
    });
  });
  await gotoHydrated(page, stack.server.url + path);
  return { page, observed };
}

for (const { path, csp } of [
  { path: "/", csp: /script-src 'self'( 'sha256-[^']+')+;/ },
  { path: "/auth", csp: /script-src 'self' 'nonce-[^']+';/ },
]) {
  describe(`${path} (${csp.source.includes("sha256") ? "cached, script hashes" : "per request, nonce"})`, () => {
    it("serves the CSP this case is about", async () => {
      const response = await fetch(stack.server.url + path);
      expect(response.headers.get("content-security-policy")).toMatch(csp);
    });

    it("fetches no script before the first contentful paint, then hydrates the server's nodes in place", async () => {
      const { page, observed } = await openPage(path);
      const timing = await page.evaluate(() => ({
        firstContentfulPaint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null,
        scripts: performance
          .getEntriesByType("resource")
          .filter((entry) => new URL(entry.name).pathname.endsWith(".js"))
          .map((entry) => ({ url: new URL(entry.name).pathname, start: entry.startTime })),
      }));
      expect(timing.firstContentfulPaint).not.toBeNull();
      expect(timing.scripts.some((s) => s.url.includes("entry.client"))).toBe(true);
      for (const script of timing.scripts) expect(script.start, script.url).toBeGreaterThanOrEqual(timing.firstContentfulPaint!);

      expect(await page.evaluate(() => (document.querySelector("main") as HTMLElement & { serverRendered?: boolean }).serverRendered)).toBe(true);
      // Neither the inert copy nor the loader is left behind.
      expect(await page.locator('script[type="text/x-after-first-paint"]').count()).toBe(0);
      expect(await page.evaluate(() => [...document.scripts].some((s) => s.textContent?.includes("document.currentScript")))).toBe(false);
      expect(observed.problems).toEqual([]);
      await page.context().close();
    });
  });
}

describe("after hydration", () => {
  it("follows links inside the app without loading a new document", async () => {
    const { page, observed } = await openPage("/");
    await page.evaluate(() => ((window as Window & { sameDocument?: boolean }).sameDocument = true));
    await page.getByRole("navigation", { name: /main/i }).getByRole("link", { name: "Calculator" }).click();
    await page.waitForURL(`${stack.server.url}/calculator`);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toMatch(/calculator/i);
    expect(await page.evaluate(() => (window as Window & { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(observed.problems).toEqual([]);
    await page.context().close();
  });
});
