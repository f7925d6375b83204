import { spawnSync } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { childPids } from "../../bench/lib";
import { createScratchPostgresDatabase, TEST_DATABASE_URL } from "../helpers/test-db";
import { startTestServer, testSecrets, type TestServer } from "./harness";

/**
 * WEB_CONCURRENCY: one server process per core behind one port (node:cluster). The supervisor keeps
 * the count, replaces a process that dies, and stops them all on SIGTERM; the embedded database, which
 * only one process may open, refuses it.
 */

const root = path.resolve(import.meta.dirname, "../..");
it("refuses more than one process on the embedded database, naming the variable", () => {
  const run = spawnSync(process.execPath, ["server.js"], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production", PORT: "0", WEB_CONCURRENCY: "2", DATABASE_URL: "", ...testSecrets() },
    encoding: "utf8",
    timeout: 60_000,
  });
  expect(run.status).toBe(1);
  expect(run.stderr).toMatch(/WEB_CONCURRENCY: more than one process needs DATABASE_URL/);
});

describe.runIf(TEST_DATABASE_URL)("several server processes on one machine", () => {
  let scratch: Awaited<ReturnType<typeof createScratchPostgresDatabase>>;
  let server: TestServer;

  beforeAll(async () => {
    scratch = await createScratchPostgresDatabase();
    server = await startTestServer({ DATABASE_URL: scratch.url, WEB_CONCURRENCY: "2" });
  });
  afterAll(async () => {
    await server?.stop();
    await scratch?.drop();
  });

  it("serves from both processes, replaces one that dies, and stops them all on SIGTERM", async () => {
    await expect.poll(() => childPids(server.process.pid!).length, { timeout: 60_000 }).toBe(2);
    await expect.poll(() => /2 server processes are serving/.test(server.output()), { timeout: 60_000 }).toBe(true);
    for (let i = 0; i < 20; i++) expect((await fetch(`${server.url}/healthz`)).status).toBe(200);

    const [victim] = childPids(server.process.pid!);
    process.kill(victim!, "SIGKILL");
    await expect.poll(() => childPids(server.process.pid!).filter((pid) => pid !== victim).length, { timeout: 60_000 }).toBe(2);
    // The supervisor's line reaches us through a pipe, possibly after the new process is visible.
    await expect.poll(() => server.output()).toMatch(/server process \d+ ended \(SIGKILL\); starting another/);
    await expect.poll(async () => (await fetch(`${server.url}/healthz`)).status, { timeout: 60_000 }).toBe(200);
    expect((await fetch(`${server.url}/about?x=1`)).status).toBe(200);

    const workers = childPids(server.process.pid!);
    expect(await server.stop()).toBe(0);
    for (const pid of workers) expect(() => process.kill(pid, 0)).toThrow();
  });
});
