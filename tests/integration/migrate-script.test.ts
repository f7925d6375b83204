import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { acquireDataDirLock } from "~/server/platform/db/data-dir-lock.server";
import { findMigrationsFolder } from "~/server/platform/db/migrate.server";
import { createScratchPostgresDatabase, TEST_DATABASE_URL } from "../helpers/test-db";

/**
 * `npm run migrate` (scripts/migrate.ts) as a deployment runs it: a separate process that applies the
 * migrations once and exits, on PostgreSQL even when several run at the same moment.
 */

const root = path.resolve(import.meta.dirname, "../..");
const tsx = path.join(root, "node_modules/.bin/tsx");
const journal = JSON.parse(fs.readFileSync(path.join(findMigrationsFolder(), "meta", "_journal.json"), "utf8")) as {
  entries: { tag: string }[];
};
const MIGRATIONS = journal.entries.length;

type Run = { code: number; stdout: string; stderr: string };

async function migrate(env: Record<string, string>): Promise<Run> {
  // Not the caller's DATABASE_URL or NODE_ENV: each run says exactly which database it migrates.
  const { DATABASE_URL: _url, NODE_ENV: _env, ...base } = process.env;
  try {
    const { stdout, stderr } = await promisify(execFile)(tsx, ["scripts/migrate.ts"], {
      cwd: root,
      env: { ...base, ...env },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === "number" ? e.code : -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-migrate-"));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("npm run migrate on the embedded database", () => {
  it("applies every migration once, then has nothing to apply", async () => {
    const dataDir = tempDir();
    const first = await migrate({ DATA_DIR: dataDir });
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`Applied ${MIGRATIONS} migrations (${MIGRATIONS} in total) to embedded PGlite in ${path.join(dataDir, "pgdata")}`);

    const second = await migrate({ DATA_DIR: dataDir });
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`Nothing to apply: all ${MIGRATIONS} migrations are already in embedded PGlite`);
    // It let go of the data folder: a server (or anything else) may open it now.
    acquireDataDirLock(dataDir).release();
  });

  it("refuses, naming the holder, while a running server holds the data folder", async () => {
    const dataDir = tempDir();
    const lock = acquireDataDirLock(dataDir, "node server.js");
    try {
      const run = await migrate({ DATA_DIR: dataDir });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`Cannot migrate: The data folder ${dataDir} is in use by another process (pid ${process.pid}`);
      expect(run.stderr).toContain('"node server.js"');
      expect(run.stderr).toContain("stop it first");
      expect(fs.existsSync(path.join(dataDir, "pgdata"))).toBe(false);
    } finally {
      lock.release();
    }
  });

  it("stops on a bad configuration instead of guessing", async () => {
    const run = await migrate({ DATA_DIR: tempDir(), DATABASE_URL: "mysql://nope" });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Cannot migrate: Invalid configuration");
    expect(run.stderr).toContain("DATABASE_URL");
  });
});

describe.runIf(TEST_DATABASE_URL)("npm run migrate on PostgreSQL", () => {
  it("three deployments migrating one fresh database at the same moment: all succeed, each migration is applied once", async () => {
    const scratch = await createScratchPostgresDatabase();
    try {
      const runs = await Promise.all([1, 2, 3].map(() => migrate({ DATA_DIR: tempDir(), DATABASE_URL: scratch.url })));
      expect(runs.map((r) => [r.code, r.stderr])).toEqual([
        [0, ""],
        [0, ""],
        [0, ""],
      ]);
      // Exactly one of them did the work; the others waited on the advisory lock and found nothing left.
      const applied = runs.map((r) => Number(/Applied (\d+) migration/.exec(r.stdout)?.[1] ?? 0)).sort();
      expect(applied).toEqual([0, 0, MIGRATIONS]);
      expect(runs.filter((r) => r.stdout.includes(`Nothing to apply: all ${MIGRATIONS} migrations`))).toHaveLength(2);

      const client = new pg.Client({ connectionString: scratch.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ n: number; distinct_hashes: number }>(
          "select count(*)::int as n, count(distinct hash)::int as distinct_hashes from drizzle.__drizzle_migrations",
        );
        expect(rows[0]).toEqual({ n: MIGRATIONS, distinct_hashes: MIGRATIONS });
      } finally {
        await client.end();
      }
    } finally {
      await scratch.drop();
    }
  });
});
