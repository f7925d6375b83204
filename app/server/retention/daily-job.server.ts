import type { DocumentStorage } from "~/server/platform/storage/storage-keys.server";
import { startRepeatingJob, type JobStartOptions, type RepeatingJob } from "~/server/platform/jobs/repeating-job.server";
import { describeDisposal, disposeExpiredRecords } from "./disposal.server";

/**
 * The disposal run inside the server process: once shortly after start-up, then once a day. Every
 * instance schedules it; on PostgreSQL an advisory lock lets one of them do the work. A failed run
 * is logged and tried again the next day (nothing is half-done: see disposal.server.ts).
 */

export type RetentionJob = RepeatingJob;

export const DAY_MS = 24 * 60 * 60 * 1000;
/** Not at once: start-up (migrations, first requests) comes first, and a crash loop must not dispose in a loop. */
export const FIRST_RUN_DELAY_MS = 15 * 60 * 1000;

export function startRetentionJob(options: JobStartOptions & { storage: DocumentStorage }): RetentionJob {
  return startRepeatingJob({
    run: () => disposeExpiredRecords({ db: options.db, storage: options.storage, now: options.now?.(), log: options.log }),
    onDone: (result) => options.log(`[retention] ${describeDisposal(result)}`),
    onError: (error, next) => options.log(`[retention] disposal run failed, next try in ${Math.round(next / 3_600_000)} h: ${error.message}`),
    intervalMs: options.intervalMs ?? DAY_MS,
    firstRunDelayMs: options.firstRunDelayMs ?? FIRST_RUN_DELAY_MS,
    record: { db: options.db, job: "retention" },
  });
}
