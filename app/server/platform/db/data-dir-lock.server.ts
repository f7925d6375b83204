import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * PGlite has no lock between processes: two processes opening one data folder silently lose writes.
 * This lock is a file created with O_EXCL in the folder; it names its holder so the refusal can say who.
 * A lock whose holder process is gone (crash, SIGKILL) is taken over.
 */

export type LockHolder = { pid: number; hostname: string; command: string; startedAt: string };

export class DataDirLockedError extends Error {
  constructor(
    public readonly dir: string,
    public readonly holder: LockHolder,
  ) {
    super(
      `The data folder ${dir} is in use by another process (pid ${holder.pid} on ${holder.hostname}, ` +
        `"${holder.command}", since ${holder.startedAt}). Embedded PGlite allows one process at a time: ` +
        `stop that process first, or set DATABASE_URL to use a PostgreSQL server.`,
    );
    this.name = "DataDirLockedError";
  }
}

export type DataDirLock = { file: string; release: () => void };

const LOCK_NAME = "portal.lock";

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readHolder(file: string): LockHolder | undefined {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<LockHolder>;
    if (typeof parsed.pid !== "number") return undefined;
    return {
      pid: parsed.pid,
      hostname: String(parsed.hostname ?? "unknown host"),
      command: String(parsed.command ?? "unknown command"),
      startedAt: String(parsed.startedAt ?? "unknown time"),
    };
  } catch {
    return undefined;
  }
}

export function acquireDataDirLock(dir: string, command = process.argv.slice(1).join(" ") || "node"): DataDirLock {
  const absolute = path.resolve(dir);
  fs.mkdirSync(absolute, { recursive: true, mode: 0o700 });
  const file = path.join(absolute, LOCK_NAME);
  const me: LockHolder = {
    pid: process.pid,
    hostname: os.hostname(),
    command: path.basename(command).slice(0, 200),
    startedAt: new Date().toISOString(),
  };

  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(file, "wx", 0o600);
      fs.writeSync(fd, JSON.stringify(me));
      fs.closeSync(fd);
      let released = false;
      return {
        file,
        release: () => {
          if (released) return;
          released = true;
          // Only remove the file if it is still ours (never a successor's lock).
          if (readHolder(file)?.pid === process.pid) fs.rmSync(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = readHolder(file);
    // A holder on another host cannot be probed; treat it as alive (a shared folder over NFS).
    const sameHost = holder?.hostname === os.hostname();
    if (holder && (!sameHost || isAlive(holder.pid))) throw new DataDirLockedError(absolute, holder);
    if (!holder) {
      // A half-written lock (the holder is writing it right now, or died while writing): give it a moment.
      const stat = fs.statSync(file, { throwIfNoEntry: false });
      if (!stat) continue;
      if (Date.now() - stat.mtimeMs < 2000) {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
        continue;
      }
    }
    // Stale: rename it away atomically so only one of several racing processes removes it.
    const stale = `${file}.stale-${process.pid}`;
    try {
      fs.renameSync(file, stale);
      fs.rmSync(stale, { force: true });
    } catch {
      /* another process took it over first; loop and see */
    }
  }
  const holder = readHolder(file);
  throw new DataDirLockedError(
    absolute,
    holder ?? { pid: -1, hostname: "unknown host", command: "unknown command", startedAt: "unknown time" },
  );
}
