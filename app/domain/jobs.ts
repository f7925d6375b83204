import type { StampedResult } from "./action-result";
import { JOB_NAMES, type JobName, type JobRunStatus } from "./enums";
import { z } from "./validation/zod";

/**
 * The Jobs section of /admin/monitoring (decision 0081): what the page shows for each background job,
 * and its one action, Retry, offered only for a job whose latest finished run failed. Pure, no I/O.
 */

export type JobRunView = { status: JobRunStatus; startedAt: string | null; finishedAt: string | null; error: string | null };

export type JobSummary = {
  job: JobName;
  /** Runs an admin's Retry queued that no process has started yet. */
  queued: number;
  /** Runs started and not finished (a process that died leaves its run here until it is pruned). */
  running: number;
  /** The latest finished run, if any. */
  last: JobRunView | null;
  /** The latest finished run when it failed: its error, and the Retry button. */
  failed: JobRunView | null;
};

export type JobsData = { ok: true; jobs: JobSummary[] } | { ok: false };

export const JOB_INTENTS = ["retry-job"] as const;

export const JOB_MESSAGES = {
  intent: "Unknown action.",
  unknownJob: "Choose one of the listed jobs.",
  notFailed: "This job's latest run did not fail: there is nothing to retry.",
  alreadyQueued: "A retry of this job is already waiting to run.",
  queuedTitle: "Retry Started",
  refusedTitle: "Retry Not Started",
} as const;

/** Retry's form: the intent and a job's name. */
export const JOB_RETRY_SCHEMA = z.object({ intent: z.enum(JOB_INTENTS), job: z.enum(JOB_NAMES) });

export type JobActionData = StampedResult;
