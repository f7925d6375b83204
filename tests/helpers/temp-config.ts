import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll } from "vitest";
import { ConfigError, loadConfig, setConfig } from "~/server/platform/config.server";

/** Temporary folders and a loaded server configuration, cleaned up by the test file's own hooks. */

/** Returns a function that makes a fresh `portal-<prefix>-` folder; every folder made is removed after each test. */
export function tempDirMaker(prefix: string): () => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `portal-${prefix}-`));
    dirs.push(dir);
    return dir;
  };
}

/**
 * A `portal-<prefix>-` data folder and the server's configuration loaded for it (with `env`; the
 * breached-password lookup off) before the file's tests; the folder is removed after them.
 */
export function setUpTestConfig(prefix: string, env: Record<string, string>): string {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `portal-${prefix}-`));
  beforeAll(() => setConfig(loadConfig({ DATA_DIR: dataDir, PWNED_PASSWORDS_URL: "off", ...env })));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  return dataDir;
}

/** What loadConfig refuses in `env`, one problem per entry (none when it loads). */
export function configProblems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}
