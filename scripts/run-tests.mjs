// `npm test`: every suite (unit + integration, then browser end-to-end against the built server),
// closing with one line `N passed, N failed` summed over all of them.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ensureTestPrerequisites } from "./test-prerequisites.mjs";

// Chromium, poppler-utils, Java: installed here when possible, else a stop naming the command to run.
if (!ensureTestPrerequisites()) {
  console.log("\n0 passed, 1 failed");
  process.exit(1);
}

// The browser suites run two files at a time, then the files that must run alone (listed in vitest.e2e.config.ts)
// against the build the first group made.
const suites = [
  { name: "unit and integration", args: ["vitest", "run"] },
  { name: "browser end-to-end", args: ["vitest", "run", "-c", "vitest.e2e.config.ts"] },
  { name: "browser end-to-end, run alone", args: ["vitest", "run", "-c", "vitest.e2e.config.ts"], env: { E2E_GROUP: "serial" }, reusesBuild: true },
];
const only = process.argv.slice(2);
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-tests-"));
let passed = 0;
let failed = 0;
let broken = false;
let built = false;

for (const suite of suites) {
  if (only.length && !only.some((o) => suite.name.includes(o))) continue;
  const report = path.join(outDir, `${suite.name.replace(/\W+/g, "-")}.json`);
  console.log(`\n=== ${suite.name} ===`);
  const run = spawnSync("npx", [...suite.args, "--reporter=default", "--reporter=json", `--outputFile.json=${report}`], {
    stdio: "inherit",
    // The serial group skips the build when the group before it made one in this run.
    env: { ...process.env, ...suite.env, ...(suite.reusesBuild && built ? { E2E_SKIP_BUILD: "1" } : {}) },
  });
  if (suite.args.includes("vitest.e2e.config.ts")) built = true;
  let counted = false;
  try {
    const json = JSON.parse(fs.readFileSync(report, "utf8"));
    passed += json.numPassedTests ?? 0;
    failed += json.numFailedTests ?? 0;
    // A file that failed without a failed test (it did not load, or its set-up threw and its tests were
    // skipped) counts as one failure: the closing line must never say 0 failed for a red run.
    const brokenFiles = (json.testResults ?? []).filter(
      (f) => f.status === "failed" && !(f.assertionResults ?? []).some((test) => test.status === "failed"),
    );
    failed += brokenFiles.length;
    counted = true;
  } catch {
    /* no report: the runner itself crashed */
  }
  if (!counted || run.status !== 0) {
    if (!counted) failed += 1;
    broken = true;
    console.error(`The ${suite.name} suite exited with status ${run.status}.`);
  }
}

console.log(`\n${passed} passed, ${failed} failed`);
process.exit(broken || failed > 0 ? 1 : 0);
