import { gzipSync } from "node:zlib";
import type { Browser, Response } from "playwright-core";

/**
 * What a first visit to a page costs the browser (issue #8): the JavaScript and CSS it downloads, and
 * whether its images are sized and lazy below the fold. Shared by the page-weight bench and its browser
 * test, so the figure the bench prints is the one CI enforces.
 *
 * Sizes are the gzip size of each response body, compressed here with zlib's default level (6, what the
 * server's `compression` middleware uses for gzip). They are deterministic for a given build, unlike
 * the bytes on the wire, which depend on the encoding the browser negotiates (Chromium asks for br
 * and zstd too) and on chunked framing.
 */

export const BUDGET = { jsGzipBytes: 150 * 1024, cssGzipBytes: 40 * 1024 } as const;

/** Lighthouse's mobile screen (Moto G Power) and a common laptop screen: "the fold" differs between them. */
export const VIEWPORTS = [
  { name: "mobile", width: 412, height: 823, isMobile: true, hasTouch: true },
  { name: "desktop", width: 1350, height: 940, isMobile: false, hasTouch: false },
] as const;

export type Asset = { url: string; kind: "js" | "css"; bytes: number; gzipBytes: number };
export type ImageProblem = { src: string; viewport: string; problem: string };
export type PageWeight = {
  path: string;
  assets: Asset[];
  jsGzipBytes: number;
  cssGzipBytes: number;
  /** Scripts written into the HTML itself (hydration data, route manifest); part of the document, not counted above. */
  inlineScriptGzipBytes: number;
  images: number;
  imageProblems: ImageProblem[];
};

function kindOf(response: Response): Asset["kind"] | null {
  const type = response.request().resourceType();
  const contentType = response.headers()["content-type"] ?? "";
  if (type === "script" || /javascript/.test(contentType)) return "js";
  if (type === "stylesheet" || /text\/css/.test(contentType)) return "css";
  return null;
}

const gzipSize = (body: Buffer) => gzipSync(body).length;

/** Loads `path` in a fresh context (empty cache) and waits until the network is quiet, so lazy chunks fetched after hydration count too. */
async function loadOnce(browser: Browser, base: string, path: string, viewport: (typeof VIEWPORTS)[number]) {
  const { name, width, height, ...device } = viewport;
  const context = await browser.newContext({ viewport: { width, height }, ...device });
  try {
    const page = await context.newPage();
    const pending: Promise<Asset | null>[] = [];
    page.on("response", (response) => {
      const kind = kindOf(response);
      if (!kind || response.status() !== 200) return;
      pending.push(
        response
          .body()
          .then((body) => ({ url: new URL(response.url()).pathname, kind, bytes: body.length, gzipBytes: gzipSize(body) }))
          .catch(() => null),
      );
    });
    await page.goto(new URL(path, base).href, { waitUntil: "networkidle" });
    // Hydration has run (React marks the main element) before images and scripts are inspected.
    await page.waitForFunction(() => {
      const main = document.getElementById("main");
      return main != null && Object.keys(main).some((key) => key.startsWith("__reactFiber"));
    });
    await page.waitForLoadState("networkidle");

    const inline = await page.evaluate(() =>
      Array.from(document.querySelectorAll("script:not([src])"))
        .filter((s) => !s.getAttribute("type") || /javascript|module/.test(s.getAttribute("type")!))
        .map((s) => s.textContent ?? "")
        .join("\n"),
    );
    const images = await page.evaluate(() =>
      Array.from(document.images).map((img) => ({
        src: img.getAttribute("src") ?? "",
        width: img.getAttribute("width"),
        height: img.getAttribute("height"),
        loading: img.getAttribute("loading"),
        // Document coordinates: below the fold is what starts under the first screenful.
        top: img.getBoundingClientRect().top + window.scrollY,
        visible: img.getClientRects().length > 0,
      })),
    );
    const problems: ImageProblem[] = [];
    for (const img of images) {
      if (!img.width || !img.height) problems.push({ src: img.src, viewport: name, problem: "no width/height attributes" });
      if (img.visible && img.top >= height && img.loading !== "lazy") {
        problems.push({ src: img.src, viewport: name, problem: `below the fold (top ${Math.round(img.top)} px) but not loading="lazy"` });
      }
    }
    const assets = (await Promise.all(pending)).filter((a): a is Asset => a !== null);
    return { assets, inlineScriptGzipBytes: inline ? gzipSize(Buffer.from(inline)) : 0, images: images.length, problems };
  } finally {
    await context.close();
  }
}

export async function measurePageWeight(browser: Browser, base: string, path = "/"): Promise<PageWeight> {
  const runs = [];
  for (const viewport of VIEWPORTS) runs.push(await loadOnce(browser, base, path, viewport));
  // Weight from the mobile load (the bundle does not depend on the screen); image checks from both.
  const first = runs[0]!;
  const sum = (kind: Asset["kind"]) => first.assets.filter((a) => a.kind === kind).reduce((n, a) => n + a.gzipBytes, 0);
  return {
    path,
    assets: first.assets.sort((a, b) => b.gzipBytes - a.gzipBytes),
    jsGzipBytes: sum("js"),
    cssGzipBytes: sum("css"),
    inlineScriptGzipBytes: first.inlineScriptGzipBytes,
    images: Math.max(...runs.map((r) => r.images)),
    imageProblems: runs.flatMap((r) => r.problems),
  };
}

export const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
