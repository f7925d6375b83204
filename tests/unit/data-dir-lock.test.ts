import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { acquireDataDirLock, DataDirLockedError } from "~/server/platform/db/data-dir-lock.server";
import { tempDirMaker } from "../helpers/temp-config";

const tempDir = tempDirMaker("lock");

/** A real other process that holds the folder's lock file as ours would. */
function otherProcess() {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
  return child;
}

describe("data folder lock", () => {
  it("refuses a second holder while the first is alive, naming the folder and the process", async () => {
    const dir = tempDir();
    const child = otherProcess();
    try {
      fs.writeFileSync(
        path.join(dir, "portal.lock"),
        JSON.stringify({ pid: child.pid, hostname: os.hostname(), command: "server.js", startedAt: "2026-01-01T00:00:00Z" }),
      );
      let error: unknown;
      try {
        acquireDataDirLock(dir);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(DataDirLockedError);
      expect((error as Error).message).toContain(dir);
      expect((error as Error).message).toContain(`pid ${child.pid}`);
      expect((error as Error).message).toContain("server.js");
    } finally {
      child.kill();
    }
  });

  it("takes over a lock left by a process that is gone", async () => {
    const dir = tempDir();
    const child = otherProcess();
    const pid = child.pid!;
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    fs.writeFileSync(path.join(dir, "portal.lock"), JSON.stringify({ pid, hostname: os.hostname(), command: "x", startedAt: "t" }));
    const lock = acquireDataDirLock(dir);
    expect(JSON.parse(fs.readFileSync(lock.file, "utf8")).pid).toBe(process.pid);
    lock.release();
    expect(fs.existsSync(lock.file)).toBe(false);
  });

  it("releases on request so the next opener succeeds, and never removes a successor's lock", () => {
    const dir = tempDir();
    const first = acquireDataDirLock(dir);
    first.release();
    const second = acquireDataDirLock(dir);
    first.release(); // a second release of the old handle must not remove the new lock
    expect(fs.existsSync(second.file)).toBe(true);
    second.release();
  });
});
