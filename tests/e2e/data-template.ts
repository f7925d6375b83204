import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * A migrated embedded database, made once per browser run and copied into each test server's new
 * data folder. A server starting on a new folder spends most of its start-up applying every migration
 * to PGlite (decision 0080 has the measurements); on a copy of a migrated folder it applies none.
 *
 * Only the database folder (`pgdata`) is copied: the secrets a server generates at its first start
 * (`secrets/`) and the data-folder lock live beside it, so no two servers share a secret or a lock.
 * Migrations are SQL alone and store nothing derived from a secret.
 */

/** Where the global setup says the template is (unset when a file runs without it: then no copy). */
export const TEMPLATE_ENV = "E2E_TEMPLATE_DATA_DIR";
const DATABASE_FOLDER = "pgdata";

const root = path.resolve(import.meta.dirname, "../..");

/** The sample OFAC files the template's lists are loaded from (every name in them is invented). */
const SANCTIONS_FIXTURE_FILES = ["sdn/sdn.csv", "sdn/add.csv", "sdn/alt.csv", "consolidated/cons_prim.csv", "consolidated/cons_add.csv", "consolidated/cons_alt.csv"].map((f) =>
  path.join(root, "tests/fixtures/sanctions", f),
);
export const SANCTIONS_PUBLISHED_ON = "2026-12-01";

/** Migrates a new data folder with the built server's own migrate step and loads the sample sanctions lists; returns the folder. */
export function makeTemplateDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-e2e-template-"));
  const env: Record<string, string | undefined> = {
    ...process.env,
    NODE_ENV: "production",
    DATA_DIR: dir,
    // Secrets given, so none is generated into the template.
    APP_SECRET: "template-secret-never-used-by-a-server-0123456789",
    ENCRYPTION_KEY: `v1:${Buffer.alloc(32, 7).toString("base64")}`,
  };
  delete env.DATABASE_URL;
  execFileSync(process.execPath, ["server.js", "--migrate"], { cwd: root, env, stdio: ["ignore", "ignore", "inherit"] });
  if (!fs.existsSync(path.join(dir, DATABASE_FOLDER, "PG_VERSION"))) throw new Error(`The migrate step left no database in ${dir}`);
  // The sample sanctions lists, loaded as an operator would (npm run sanctions:load): a loan is funded only
  // after a screening against a loaded list, so every test server can fund one.
  execFileSync(process.execPath, [path.join(root, "node_modules/tsx/dist/cli.mjs"), "scripts/sanctions-load.ts", "--published", SANCTIONS_PUBLISHED_ON, ...SANCTIONS_FIXTURE_FILES], {
    cwd: root,
    env,
    stdio: ["ignore", "ignore", "inherit"],
  });
  return dir;
}

/**
 * Copies the template's database into dataDir when there is a template and dataDir has no database
 * yet; says whether it copied. A folder that already holds a database is left as it is.
 */
export function seedDataDirFromTemplate(dataDir: string): boolean {
  const template = process.env[TEMPLATE_ENV];
  if (!template) return false;
  const target = path.join(dataDir, DATABASE_FOLDER);
  if (fs.existsSync(target)) return false;
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  fs.cpSync(path.join(template, DATABASE_FOLDER), target, { recursive: true });
  return true;
}

/** A new data folder holding a migrated database (an empty one when there is no template). */
export function newDataDir(prefix = "portal-e2e-"): string {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  seedDataDirFromTemplate(dataDir);
  return dataDir;
}
