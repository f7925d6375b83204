import type { JobName } from "~/domain/enums";

/**
 * The jobs this process runs, by name, so an admin's Retry can start one now in the process that
 * answered. A job not running here (a script, a test, jobs turned off) is simply absent: its queued
 * run waits for the next process that runs it.
 */

const running = new Map<JobName, () => void>();

/** Registers `runNow` under `job`; the returned function removes it (when the job stops). */
export function registerJob(job: JobName, runNow: () => void): () => void {
  running.set(job, runNow);
  return () => {
    if (running.get(job) === runNow) running.delete(job);
  };
}

/** Starts `job` now if this process runs it; true when it did. */
export function runJobNow(job: JobName): boolean {
  const runNow = running.get(job);
  runNow?.();
  return runNow !== undefined;
}
