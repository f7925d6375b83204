import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { serialE2eFiles } from "./tests/e2e/serial-files";

// Browser end-to-end suites against the built server (global setup builds it once). Each file starts
// its own server, data folder or scratch database and browser, so two files run side by side; the
// files in serial-files.ts run alone afterwards (E2E_GROUP=serial, see scripts/run-tests.mjs).
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
