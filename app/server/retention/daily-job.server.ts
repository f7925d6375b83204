import type { Db } from "~/server/db/client.server";
import type { DocumentStorage } from "~/server/storage/storage-keys.server";
import { describeDisposal, disposeExpiredRecords } from "./disposal.server";

/**
 * The disposal run inside the server process: once shortly after start-up, then once a day. Every
 * instance schedules it; on PostgreSQL an advisory lock lets one of them do the work. A failed run
 * is logged and tried again the next day (nothing is half-done: see disposal.server.ts).
 */

export type RetentionJob = { stop: () => Promise<void> };

export const DAY_MS = 24 * 60 * 60 * 1000;
/** Not at once: start-up (migrations, first requests) comes first, and a crash loop must not dispose in a loop. */
export const FIRST_RUN_DELAY_MS = 15 * 60 * 1000;

export function startRetentionJob(options: {
  db: Db;
  storage: DocumentStorage;
  log: (line: string) => void;
  intervalMs?: number;
  firstRunDelayMs?: number;
  now?: () => Date;
}): RetentionJob {
  const interval = options.intervalMs ?? DAY_MS;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  const run = () => {
    running = disposeExpiredRecords({ db: options.db, storage: options.storage, now: options.now?.(), log: options.log })
      .then(
        (result) => options.log(`[retention] ${describeDisposal(result)}`),
        (error: unknown) => options.log(`[retention] disposal run failed, next try in ${Math.round(interval / 3_600_000)} h: ${(error as Error).message}`),
      )
      .finally(() => {
        running = undefined;
        schedule(interval);
      });
  };
  const schedule = (delay: number) => {
    if (stopped) return;
    timer = setTimeout(run, delay);
    // The schedule alone must not keep a process alive (scripts, tests).
    timer.unref();
  };
  schedule(options.firstRunDelayMs ?? FIRST_RUN_DELAY_MS);

  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      // A run in flight finishes its transaction (and file removals) before the database closes.
      await running;
    },
  };
}
