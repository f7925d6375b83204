import { launchBrowser, startTestServer } from "../tests/e2e/harness";
import { BUDGET, kb, measurePageWeight } from "../tests/e2e/helpers/page-weight";
import type { BenchResult } from "./lib";

/**
 * Browser weight of the home page's first load (issue #8): gzip size of every JavaScript and CSS file
 * the browser fetched, and images without width/height or eager below the fold. Sizes, not timings:
 * the same build gives the same figures on any machine.
 */
export async function pageWeightBench(): Promise<BenchResult> {
  const [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  try {
    const weight = await measurePageWeight(browser, server.url, "/");
    const heaviest = weight.assets
      .slice(0, 5)
      .map((a) => `${a.url.replace("/assets/", "")} ${kb(a.gzipBytes)}`)
      .join(", ");
    return {
      bench: "home page first-load weight",
      params: { path: weight.path, measure: "gzip (zlib level 6) of each response body", files: weight.assets.length },
      figures: [
        { name: "JavaScript (gzip)", value: kb(weight.jsGzipBytes), unit: "KB", note: `goal ≤ ${kb(BUDGET.jsGzipBytes)} KB; heaviest: ${heaviest}` },
        { name: "CSS (gzip)", value: kb(weight.cssGzipBytes), unit: "KB", note: `goal ≤ ${kb(BUDGET.cssGzipBytes)} KB` },
        { name: "inline scripts in the HTML (gzip)", value: kb(weight.inlineScriptGzipBytes), unit: "KB", note: "hydration data; part of the document" },
        { name: "JavaScript files", value: weight.assets.filter((a) => a.kind === "js").length, unit: "" },
        { name: "images", value: weight.images, unit: "" },
        {
          name: "image problems",
          value: weight.imageProblems.length,
          unit: "",
          note: weight.imageProblems.length ? weight.imageProblems.map((p) => `${p.src} (${p.viewport}): ${p.problem}`).join("; ") : "goal 0",
        },
      ],
    };
  } finally {
    await browser.close();
    await server.stop();
  }
}
