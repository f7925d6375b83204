import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, startTestServer, type TestServer } from "./harness";
import { BUDGET, kb, measurePageWeight, type PageWeight } from "./helpers/page-weight";

/**
 * Issue #8's browser-weight budget, enforced: the home page's first load ships at most 150 KB of
 * JavaScript and 40 KB of CSS (gzip), and its images are sized and lazy below the fold. Sizes depend
 * only on the build, so unlike timings they can fail a CI run.
 */

let server: TestServer;
let browser: Browser;
let home: PageWeight;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  home = await measurePageWeight(browser, server.url, "/");
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const listing = (weight: PageWeight, kind: "js" | "css") =>
  weight.assets
    .filter((a) => a.kind === kind)
    .map((a) => `${a.url} ${kb(a.gzipBytes)} KB`)
    .join("\n");

describe("home page first load", () => {
  it("measured the files the page really loads", () => {
    // Guards the measurement itself: a page that loaded no script or no stylesheet would pass any budget.
    expect(home.assets.some((a) => a.kind === "js" && a.url.includes("entry.client"))).toBe(true);
    expect(home.cssGzipBytes).toBeGreaterThan(0);
    expect(home.images).toBeGreaterThan(0);
  });

  it(`ships at most ${kb(BUDGET.jsGzipBytes)} KB of JavaScript (gzip)`, () => {
    expect(home.jsGzipBytes, `JavaScript files, heaviest first:\n${listing(home, "js")}`).toBeLessThanOrEqual(BUDGET.jsGzipBytes);
  });

  it(`ships at most ${kb(BUDGET.cssGzipBytes)} KB of CSS (gzip)`, () => {
    expect(home.cssGzipBytes, listing(home, "css")).toBeLessThanOrEqual(BUDGET.cssGzipBytes);
  });

  it("sizes every image and lazy-loads those below the fold", () => {
    expect(home.imageProblems).toEqual([]);
  });
});
