import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { makeTemplateDataDir, TEMPLATE_ENV } from "./data-template";

/**
 * Builds the production bundle once per e2e run (skip with E2E_SKIP_BUILD=1 when it is fresh), then
 * migrates one embedded database that each test server's new data folder starts from (data-template.ts).
 */
export default function setup() {
  if (process.env.E2E_SKIP_BUILD !== "1") {
    // Vitest sets NODE_ENV=test, which would make a React development build: build what production runs.
    // npm run build: the production build with no warnings (scripts/build-warnings.mjs).
    execFileSync("npm", ["run", "build"], {
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, NODE_ENV: "production" },
    });
  }
  // E2E_FRESH_DATA_DIRS=1: every server migrates its own new folder, as before the template (to measure).
  if (process.env.E2E_FRESH_DATA_DIRS === "1") return;
  const template = makeTemplateDataDir();
  // Test files run in child processes started after this setup, which inherit its environment.
  process.env[TEMPLATE_ENV] = template;
  return () => fs.rmSync(template, { recursive: true, force: true });
}
