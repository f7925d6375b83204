import { writeAudit } from "~/server/platform/audit/audit.server";
import type { Db } from "~/server/platform/db/client.server";
import { registerJob } from "~/server/platform/jobs/job-registry.server";
import { recordedRuns } from "~/server/platform/jobs/job-runs.server";
import type { DocumentStorage } from "./storage-keys.server";

/**
 * The orphan sweep: removes stored objects that no loan_documents row, no signed_agreements row
 * (the signed loan agreements), no data_exports row and no draft_documents row points at. A submission writes
 * its files before the transaction that records them (submit.server.ts), and removes them again when
 * that transaction fails; a process killed in between leaves files nobody can reach. They hold ID
 * scans and bank statements, so they must not linger.
 *
 * Only objects last modified before `olderThan` are candidates: another instance (or this one) may be
 * between writing a submission's files and committing it. The database is asked AFTER listing, so a
 * submission that commits while the sweep lists is seen.
 */

export type SweepResult = {
  /** Objects listed in storage. */
  examined: number;
  /** Orphans removed (their keys, for the audit row and the log). */
  removed: string[];
  /** Orphans left alone because they are younger than the cut-off. */
  tooYoung: number;
  /** Leftovers of interrupted local writes (`*.part`) removed. */
  incompleteWrites: number;
};

/**
 * Which of `keys` a record still points at. The tables that hold stored files belong to the modules
 * above platform/, so the caller supplies the answer (retention/'s referencedStorageKeys); required,
 * so a sweep can never run without it and take every file for an orphan.
 */
export type StoredKeyReferences = (keys: string[], db: Db) => Promise<Set<string>>;

const LOOKUP_CHUNK = 500;
/** How many removed keys the audit row names (the count is always complete). */
const AUDITED_KEYS = 200;

export async function sweepOrphans(options: {
  db: Db;
  storage: DocumentStorage;
  /** Objects modified at or after this instant are never removed. */
  olderThan: Date;
  /** Why the sweep ran, for the audit row ('start-up', 'periodic'). */
  reason: string;
  referenced: StoredKeyReferences;
}): Promise<SweepResult> {
  const { db, storage, olderThan } = options;
  const objects = await storage.listObjects();
  const candidates = objects.filter((o) => o.modifiedAt < olderThan).map((o) => o.key);

  const referenced = new Set<string>();
  for (let i = 0; i < candidates.length; i += LOOKUP_CHUNK) {
    for (const key of await options.referenced(candidates.slice(i, i + LOOKUP_CHUNK), db)) referenced.add(key);
  }

  const removed: string[] = [];
  for (const key of candidates) {
    if (referenced.has(key)) continue;
    await storage.delete(key);
    removed.push(key);
  }
  const incompleteWrites = await storage.removeIncompleteWrites(olderThan);

  if (removed.length > 0 || incompleteWrites > 0) {
    await writeAudit(db, {
      actor: null,
      action: "storage.orphan_sweep",
      details: {
        reason: options.reason,
        removed: removed.length,
        incompleteWrites,
        olderThan: olderThan.toISOString(),
        keys: removed.slice(0, AUDITED_KEYS),
      },
    });
  }
  return { examined: objects.length, removed, tooYoung: objects.length - candidates.length, incompleteWrites };
}

export type OrphanSweeper = { stop(): Promise<void>; readonly startup: Promise<SweepResult | undefined> };

const HOUR_MS = 60 * 60_000;

/**
 * Runs one sweep at start-up (in the background: readiness does not wait for a storage listing) and
 * one every `intervalMs`. With the embedded database only this process can use the data (the
 * data-folder lock), so at start-up everything older than the process is fair game whatever the grace;
 * on PostgreSQL other instances may be mid-submission, so the grace period always applies.
 */
export function startOrphanSweeper(options: {
  db: Db;
  storage: DocumentStorage;
  referenced: StoredKeyReferences;
  graceSeconds: number;
  singleProcess: boolean;
  log: (line: string) => void;
  intervalMs?: number;
  now?: () => Date;
}): OrphanSweeper {
  const now = options.now ?? (() => new Date());
  const startedAt = now();
  const graceCutoff = () => new Date(now().getTime() - options.graceSeconds * 1000);
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const stopping = new AbortController();

  const run = (reason: string, olderThan: Date): Promise<SweepResult | undefined> => {
    const sweepOnce = recordedRuns(options.db, "orphan-sweep", () => sweepOrphans({ db: options.db, storage: options.storage, olderThan, reason, referenced: options.referenced }));
    const sweep = sweepOnce(stopping.signal).then(
      (result) => {
        if (reason === "start-up" || result.removed.length > 0 || result.incompleteWrites > 0) {
          options.log(
            `[storage] orphan sweep (${reason}): ${result.examined} objects, removed ${result.removed.length} orphans` +
              ` and ${result.incompleteWrites} incomplete writes, ${result.tooYoung} too recent to judge`,
          );
        }
        return result;
      },
      (error: unknown) => {
        // A storage or database outage: the next sweep tries again.
        options.log(`[storage] orphan sweep (${reason}) failed: ${(error as Error).message}`);
        return undefined;
      },
    );
    running = sweep;
    return sweep;
  };

  const startupCutoff = options.singleProcess ? startedAt : graceCutoff();
  const startup = run("start-up", startupCutoff);
  const timer = setInterval(() => {
    if (!stopped) void running.then(() => run("periodic", graceCutoff()));
  }, options.intervalMs ?? HOUR_MS);
  timer.unref();
  // An admin's Retry: a sweep with the grace period, after the one in flight.
  const unregister = registerJob("orphan-sweep", () => {
    if (!stopped) void running.then(() => run("retry", graceCutoff()));
  });

  return {
    startup,
    async stop() {
      stopped = true;
      unregister();
      clearInterval(timer);
      await running;
    },
  };
}
