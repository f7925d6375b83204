import type { JobName } from "~/domain/enums";
import type { Db } from "~/server/platform/db/client.server";
import { registerJob } from "./job-registry.server";
import { recordedRuns } from "./job-runs.server";

/**
 * A job the server process runs on a timer: once after a first delay, then again each interval after
 * the previous run ended (runs never overlap). A failed run is logged and tried again at the next
 * interval. The timer never keeps a process alive (scripts, tests), and stop() tells a run in flight
 * to stop (its signal) and waits for it, so its transaction ends before the database closes. Every instance schedules its own; what
 * keeps the work from being done twice is the job's own (a lock or a conditional UPDATE).
 * A job given `record` writes each run to job_runs and can be started now by an admin's Retry
 * (runNow: at once when idle, right after the run in flight otherwise).
 */

export type RepeatingJob = { stop: () => Promise<void>; runNow: () => void };

/** What a module's job starter is given: the database, where to log, and (tests) other timings and clock than its own. */
export type JobStartOptions = { db: Db; log: (line: string) => void; intervalMs?: number; firstRunDelayMs?: number; now?: () => Date };

export function startRepeatingJob<T>(options: {
  /** One run; what it resolves to is handed to onDone. The signal is aborted by stop(): a long run stops between its batches. */
  run: (signal: AbortSignal) => Promise<T>;
  onDone: (result: T) => void;
  /** Told of a failed run with the delay before the next try. */
  onError: (error: Error, nextInMs: number) => void;
  intervalMs: number;
  firstRunDelayMs: number;
  /** The job's name in job_runs and the database to record its runs in. */
  record?: { db: Db; job: JobName };
}): RepeatingJob {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  let again = false;
  const stopping = new AbortController();
  const runOnce = options.record ? recordedRuns(options.record.db, options.record.job, options.run) : options.run;

  const run = () => {
    running = Promise.resolve()
      .then(() => runOnce(stopping.signal))
      .then(options.onDone, (error: unknown) => options.onError(error instanceof Error ? error : new Error(String(error)), options.intervalMs))
      .finally(() => {
        running = undefined;
        schedule(again ? 0 : options.intervalMs);
        again = false;
      });
  };
  const schedule = (delay: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(run, delay);
    timer.unref();
  };
  schedule(options.firstRunDelayMs);

  const runNow = () => {
    if (stopped) return;
    if (running) again = true;
    else schedule(0);
  };
  const unregister = options.record ? registerJob(options.record.job, runNow) : () => undefined;

  return {
    stop: async () => {
      stopped = true;
      unregister();
      stopping.abort();
      clearTimeout(timer);
      await running;
    },
    runNow,
  };
}
