import os from "node:os";
import { and, eq, inArray, notInArray, sql } from "drizzle-orm";
import type { JobName } from "~/domain/enums";
import type { Db } from "~/server/platform/db/client.server";
import { jobRuns } from "~/server/platform/db/schema.server";
import { describeError } from "~/server/platform/log/describe-error.server";

/**
 * Each run of a background job is a row of job_runs (decision 0081), so admins see what ran, what
 * runs and what failed. The rows are written in their own statements, outside the job's transactions:
 * a run whose work rolled back is still recorded as failed. The error kept is describeError's line
 * (classes, codes, where it was thrown), never an error's message, which may quote stored data.
 * Recording is bookkeeping: when the database refuses it, the job still runs and its own outcome stands.
 */

/** Runs kept per job: enough history for the page, a small table even for the minute-by-minute export job. */
export const JOB_RUNS_KEPT = 50;

/** This process, as the rows name it. */
export const THIS_INSTANCE = `${os.hostname()}:${process.pid}`;

/** A queued run (an admin's Retry) becomes this run; otherwise a new row. Its id, or null when not recorded. */
async function recordStart(db: Db, job: JobName): Promise<string | null> {
  const claimed = await db
    .update(jobRuns)
    .set({ status: "running", startedAt: sql`now()`, instance: THIS_INSTANCE })
    .where(
      eq(
        jobRuns.id,
        sql`(select id from ${jobRuns} where ${jobRuns.job} = ${job} and ${jobRuns.status} = 'queued' order by ${jobRuns.queuedAt} limit 1 for update skip locked)`,
      ),
    )
    .returning({ id: jobRuns.id });
  if (claimed[0]) return claimed[0].id;
  const [row] = await db.insert(jobRuns).values({ job, status: "running", startedAt: sql`now()`, instance: THIS_INSTANCE }).returning({ id: jobRuns.id });
  return row?.id ?? null;
}

async function recordEnd(db: Db, job: JobName, id: string, error: unknown): Promise<void> {
  await db
    .update(jobRuns)
    .set({ status: error === undefined ? "succeeded" : "failed", finishedAt: sql`now()`, error: error === undefined ? null : describeError(error) })
    .where(eq(jobRuns.id, id));
  // Queued runs are never pruned: they are work an admin asked for.
  const kept = db.select({ id: jobRuns.id }).from(jobRuns).where(eq(jobRuns.job, job)).orderBy(sql`${jobRuns.createdAt} desc`).limit(JOB_RUNS_KEPT);
  await db.delete(jobRuns).where(and(eq(jobRuns.job, job), inArray(jobRuns.status, ["succeeded", "failed", "running"]), notInArray(jobRuns.id, kept)));
}

/** `run` with each call recorded as a run of `job`; its result and its error pass through unchanged. */
export function recordedRuns<T>(db: Db, job: JobName, run: (signal: AbortSignal) => Promise<T>): (signal: AbortSignal) => Promise<T> {
  return async (signal) => {
    const id = await recordStart(db, job).catch(() => null);
    try {
      const result = await run(signal);
      if (id) await recordEnd(db, job, id, undefined).catch(() => undefined);
      return result;
    } catch (error) {
      if (id) await recordEnd(db, job, id, error).catch(() => undefined);
      throw error;
    }
  };
}
