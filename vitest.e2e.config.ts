import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Browser suites that run alone, after the others: they kill or restart processes, measure time or
// fill a server to a limit, so a second suite sharing the two cores would change what they measure.
const serialE2eFiles = [
  "tests/e2e/fault-postgres-restart.e2e.test.ts",
  "tests/e2e/fault-sigkill.e2e.test.ts",
  "tests/e2e/fault-smtp-down.e2e.test.ts",
  "tests/e2e/live-stream-capacity.e2e.test.ts",
  "tests/e2e/multi-instance.e2e.test.ts",
  "tests/e2e/cluster.e2e.test.ts",
  "tests/e2e/page-weight.e2e.test.ts",
  "tests/e2e/scripts-after-paint.e2e.test.ts",
  "tests/e2e/public-page-cache.e2e.test.ts",
];

// Browser end-to-end suites against the built server (global setup builds it once). Each file starts
// its own server, data folder or scratch database and browser, so two files run side by side; the
// files listed above run alone afterwards (E2E_GROUP=serial, see scripts/run-tests.mjs).
const serial = process.env.E2E_GROUP === "serial";

export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    include: serial ? serialE2eFiles : ["tests/e2e/**/*.e2e.test.ts"],
    exclude: serial ? [] : ["node_modules/**", ...serialE2eFiles],
    environment: "node",
    globalSetup: ["tests/e2e/global-setup.ts"],
    fileParallelism: !serial,
    maxWorkers: serial ? 1 : 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
