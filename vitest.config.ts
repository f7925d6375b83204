import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Unit and integration suites: no browser, in-memory PGlite (or TEST_DATABASE_URL's server).
export default defineConfig({
  resolve: { alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) } },
  test: {
    include: ["tests/**/*.test.ts", "tests/**/*.test.tsx", "app/**/*.test.ts", "server/**/*.test.ts"],
    exclude: ["tests/e2e/**", "node_modules/**", "build/**"],
    environment: "node",
    // Every test database starts from one migrated template (tests/helpers/database-templates.ts).
    globalSetup: ["tests/setup/database-templates.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
