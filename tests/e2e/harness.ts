import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { seedDataDirFromTemplate } from "./data-template";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const root = path.resolve(import.meta.dirname, "../..");

export type TestServer = {
  url: string;
  dataDir: string;
  process: ChildProcess;
  /** Everything the server printed so far. */
  output: () => string;
  /** SIGTERM, then waits for the exit code. */
  stop: () => Promise<number | null>;
};

/** Test secrets, so the server runs in production mode as it would be deployed. */
export function testSecrets(): Record<string, string> {
  return {
    APP_SECRET: randomBytes(32).toString("base64url"),
    ENCRYPTION_KEY: `v1:${randomBytes(32).toString("base64")}`,
  };
}

export type TestServerOptions = {
  /** The data folder (a new one when absent); one without a database yet starts from the migrated template. */
  dataDir?: string;
  /** Flags Node refuses in NODE_OPTIONS (--cpu-prof for the page-cost bench). */
  nodeArgs?: string[];
  /** Start on an empty data folder, as a first start on a new machine does (initdb and every migration). */
  freshDatabase?: boolean;
};

/**
 * Starts `node server.js` (the built server) on a free port with its own data folder. PORT=0 lets the
 * OS pick the port; the server's start-up line says which. The embedded database starts as a copy of
 * the run's migrated template (data-template.ts) unless the server uses PostgreSQL or freshDatabase is set.
 */
export async function startTestServer(env: Record<string, string | undefined> = {}, opts: TestServerOptions = {}): Promise<TestServer> {
  if (!fs.existsSync(path.join(root, "build/server/index.js"))) throw new Error("No build: run `npm run build` first");
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "portal-e2e-"));
  const childEnv: Record<string, string | undefined> = {
    ...process.env,
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: "0",
    DATA_DIR: dataDir,
    TRANSITION_MS: "0",
    ...testSecrets(),
    ...env,
  };
  // `{ NODE_ENV: undefined }` starts the server without it, as a bare `npm start` would.
  for (const [name, value] of Object.entries(childEnv)) if (value === undefined) delete childEnv[name];
  if (!childEnv.DATABASE_URL && !opts.freshDatabase) seedDataDirFromTemplate(dataDir);
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), "server.js"], {
    cwd: root,
    env: childEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code, signal) => {
      if (signal) output += `\n[harness] server ended by signal ${signal}\n`;
      resolve(code);
    }),
  );

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Server did not start within 60 s:\n${output}`)), 60_000);
    const check = () => {
      const match = /listening on (https?:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!.replace("localhost", "127.0.0.1"));
      }
    };
    child.stdout!.on("data", check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`Server exited with code ${code} before listening:\n${output}`));
    });
  });

  return {
    url,
    dataDir,
    process: child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/**
 * Resolves once React has hydrated the page and run its first effects (buttons, tabs, client-side
 * links and timers started in effects work only then): the root layout marks `<html data-hydrated>`.
 * Scripts are fetched after the first paint (decision 0021), so a navigation's load event can come first;
 * a React fiber on an element is not enough either (it appears while hydration is still rendering).
 */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => document.documentElement.hasAttribute("data-hydrated"));
}

/** page.goto, then waits for hydration (above). */
export async function gotoHydrated(page: Page, url: string) {
  const response = await page.goto(url);
  await waitForHydration(page);
  return response;
}

/** Injects axe-core into the page and returns its violations (empty when the page passes). */
export async function axeViolations(page: import("playwright-core").Page) {
  // Let finite animations and transitions (a toast sliding in) finish: half-faded text is not what
  // a reader sees, and axe would measure its contrast mid-fade.
  // Twice, a couple of frames apart: a scroll just before (to the footer, say) lets an observer start a
  // section's reveal a frame later, after a first check found nothing running (seen in CI: a button
  // measured mid-fade).
  for (let round = 0; round < 2; round++) {
    await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
    await page
      .waitForFunction(
        () => document.getAnimations().every((a) => a.playState !== "running" || a.effect?.getTiming().iterations === Infinity),
        undefined,
        { timeout: 3000 },
      )
      .catch(() => undefined);
  }
  // A transition that starts during the scan (a toast's timer ending and its fade-out beginning) is
  // measured at its end state: with transitions off for the scan, a leaving toast is simply gone.
  // Evaluated through the DevTools protocol, so our enforced CSP (rightly) does not apply to it.
  await page.evaluate(fs.readFileSync(path.join(root, "node_modules/axe-core/axe.min.js"), "utf8"));
  return page.evaluate(async () => {
    const still = new CSSStyleSheet();
    still.replaceSync("*, *::before, *::after { transition: none !important; }");
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, still];
    try {
      const result = await (window as unknown as { axe: { run: () => Promise<{ violations: { id: string; help: string; nodes: { target: unknown }[] }[] }> } }).axe.run();
      return result.violations.map((v) => ({ id: v.id, help: v.help, targets: v.nodes.map((n) => n.target) }));
    } finally {
      document.adoptedStyleSheets = document.adoptedStyleSheets.filter((sheet) => sheet !== still);
    }
  });
}
