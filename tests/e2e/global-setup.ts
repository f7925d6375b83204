import { execFileSync } from "node:child_process";

/** Builds the production bundle once per e2e run (skip with E2E_SKIP_BUILD=1 when it is fresh). */
export default function setup() {
  if (process.env.E2E_SKIP_BUILD === "1") return;
  // Vitest sets NODE_ENV=test, which would make a React development build: build what production runs.
  // npm run build: the production build with no warnings (scripts/build-warnings.mjs).
  execFileSync("npm", ["run", "build"], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, NODE_ENV: "production" },
  });
}
