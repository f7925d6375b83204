import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Browser end-to-end suites against the built server (global setup builds it once).
export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    include: ["tests/e2e/**/*.e2e.test.ts"],
    environment: "node",
    globalSetup: ["tests/e2e/global-setup.ts"],
    // Each file starts its own server and browser; two cores do not gain from more.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
