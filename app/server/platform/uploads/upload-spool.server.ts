import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * Where a submission's files wait between the upload and their checks: one private folder per request
 * under DATA_DIR/uploads. Spooling to disk keeps a 35 MB submission from costing 35 MB (or, with the
 * copies a parser makes, several times that) of server memory while it arrives at the sender's pace;
 * only the file being checked or stored is in memory (see submit.server.ts).
 *
 * The files hold ID scans and bank statements in the clear, like the local document storage: the
 * folders are private to the server's user (0700/0600) and removed when the request ends, and whatever
 * a killed process left behind is removed by the spool cleaner. Folder names carry the host and process
 * id, so that the cleaner can tell a dead process's folder (remove now) from a live one's, even when
 * instances share DATA_DIR.
 */

export const SPOOL_FOLDER = "uploads";
const PREFIX = "submission-";
const HOST = os.hostname().replace(/[^A-Za-z0-9.]/g, "_");

/** The folder belongs to a process of this host that no longer runs (a PID reused since counts as alive). */
function ownerIsGone(name: string): boolean {
  const match = /^submission-(.+)-(\d+)-[^-]+$/.exec(name);
  if (!match || match[1] !== HOST) return false;
  const pid = Number(match[2]);
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

export type Spool = {
  dir: string;
  /** A new file path in the spool (never reused within it). */
  nextPath(): string;
  remove(): Promise<void>;
};

export async function createSpool(root: string): Promise<Spool> {
  await fs.promises.mkdir(root, { recursive: true, mode: 0o700 });
  const dir = await fs.promises.mkdtemp(path.join(root, `${PREFIX}${HOST}-${process.pid}-`));
  let n = 0;
  return {
    dir,
    nextPath: () => path.join(dir, `file-${n++}`),
    remove: () => fs.promises.rm(dir, { recursive: true, force: true }),
  };
}

/** Removes spool folders last modified before `olderThan` or left by a dead process; returns how many. */
export async function removeStaleSpools(root: string, olderThan: Date): Promise<number> {
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(root, { withFileTypes: true });
  } catch {
    return 0; // no upload has been spooled yet
  }
  let removed = 0;
  for (const entry of entries) {
    if (!entry.isDirectory() || !entry.name.startsWith(PREFIX)) continue;
    const dir = path.join(root, entry.name);
    const stat = await fs.promises.stat(dir).catch(() => undefined);
    if (!stat || (stat.mtime >= olderThan && !ownerIsGone(entry.name))) continue;
    await fs.promises.rm(dir, { recursive: true, force: true });
    removed++;
  }
  return removed;
}

const HOUR_MS = 60 * 60_000;

/**
 * At start-up and every hour, removes the spool folders of requests that can no longer be running: those
 * of dead processes on this host, and with the embedded database (no other process shares the data
 * folder) everything older than this process; otherwise folders untouched for an hour (an upload that
 * slow has long timed out).
 */
export function startSpoolCleaner(options: { root: string; singleProcess: boolean; log: (line: string) => void }): { stop(): void } {
  const run = (olderThan: Date) =>
    removeStaleSpools(options.root, olderThan).then(
      (removed) => {
        if (removed > 0) options.log(`[apply] removed ${removed} upload spool folder(s) left by interrupted submissions`);
      },
      (error: unknown) => options.log(`[apply] upload spool cleanup failed: ${(error as Error).message}`),
    );
  const hourAgo = () => new Date(Date.now() - HOUR_MS);
  void run(options.singleProcess ? new Date() : hourAgo());
  const timer = setInterval(() => void run(hourAgo()), HOUR_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
