import type { Db } from "~/server/platform/db/client.server";
import { startRepeatingJob, type RepeatingJob } from "~/server/platform/jobs/repeating-job.server";
import type { DocumentStorage } from "~/server/platform/storage/storage-keys.server";
import { processPendingExports } from "./data-export.server";

/**
 * Download My Data's background run: every DATA_EXPORT_POLL_MS (a minute by default; the
 * browser tests set it short) it prepares pending exports. Every instance schedules it; FOR UPDATE SKIP
 * LOCKED in processPendingExports keeps two instances off the same request.
 */

export const DATA_EXPORT_POLL_MS = 60_000;

export function startDataExportJob(options: {
  db: Db;
  storage: DocumentStorage;
  baseUrl: string;
  log: (line: string) => void;
  intervalMs?: number;
  firstRunDelayMs?: number;
  /** The per-person storage cap in bytes (PERSON_STORAGE_CAP_MB). */
  capBytes?: number;
}): RepeatingJob {
  const intervalMs = options.intervalMs ?? DATA_EXPORT_POLL_MS;
  return startRepeatingJob({
    run: () => processPendingExports({ db: options.db, storage: options.storage, baseUrl: options.baseUrl, log: options.log, capBytes: options.capBytes }),
    onDone: (result) => {
      if (result.ready + result.failed > 0) options.log(`[data-export] ${result.ready} file(s) ready, ${result.failed} failed`);
    },
    onError: (error, next) => options.log(`[data-export] run failed, next try in ${Math.round(next / 1000)} s: ${error.message}`),
    intervalMs,
    firstRunDelayMs: options.firstRunDelayMs ?? intervalMs,
  });
}
