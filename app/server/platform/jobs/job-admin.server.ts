import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { stampedResult } from "~/domain/action-result";
import { JOB_NAMES, type JobName } from "~/domain/enums";
import { JOB_INTENTS, JOB_MESSAGES, JOB_RETRY_SCHEMA, type JobActionData, type JobRunView, type JobsData, type JobSummary } from "~/domain/jobs";
import { JOB_LABELS } from "~/domain/labels";
import { writeAudit, type AuditActor, type RequestInfo } from "~/server/platform/audit/audit.server";
import { getDb, type Db } from "~/server/platform/db/client.server";
import { jobRuns, type JobRun } from "~/server/platform/db/schema.server";
import { readActionForm, type ServiceAnswer } from "~/server/platform/http/action-answer.server";
import { logFailure } from "~/server/platform/log/describe-error.server";
import { runJobNow } from "./job-registry.server";

/**
 * The Jobs section of /admin/monitoring (decision 0081): each background job's queued and running
 * runs, its latest finished run, and the error when that run failed; and Retry, which queues a run of
 * a failed job (audited 'job.retry', in one transaction) and starts it now when this process runs
 * the job. The job's own lock or conditional UPDATE still decides whether the work is done once.
 */

const iso = (value: Date | null): string | null => (value ? value.toISOString() : null);
const view = (row: JobRun): JobRunView => ({ status: row.status, startedAt: iso(row.startedAt), finishedAt: iso(row.finishedAt), error: row.error });

/** The latest finished run of each job. */
async function latestFinished(db: Db): Promise<Map<JobName, JobRun>> {
  const rows = await db
    .selectDistinctOn([jobRuns.job])
    .from(jobRuns)
    .where(inArray(jobRuns.status, ["succeeded", "failed"]))
    .orderBy(jobRuns.job, desc(jobRuns.finishedAt), desc(jobRuns.createdAt));
  return new Map(rows.map((row) => [row.job, row]));
}

export async function loadJobs(db: Db = getDb()): Promise<JobsData> {
  try {
    const counts = await db
      .select({ job: jobRuns.job, status: jobRuns.status, n: sql<number>`count(*)::int` })
      .from(jobRuns)
      .where(inArray(jobRuns.status, ["queued", "running"]))
      .groupBy(jobRuns.job, jobRuns.status);
    const last = await latestFinished(db);
    const count = (job: JobName, status: "queued" | "running") => counts.find((c) => c.job === job && c.status === status)?.n ?? 0;
    const jobs = JOB_NAMES.map((job): JobSummary => {
      const row = last.get(job);
      return { job, queued: count(job, "queued"), running: count(job, "running"), last: row ? view(row) : null, failed: row?.status === "failed" ? view(row) : null };
    });
    return { ok: true, jobs };
  } catch (error) {
    logFailure("monitoring", "could not load the background jobs", error);
    return { ok: false };
  }
}

export type JobAnswer = ServiceAnswer<JobActionData>;

const refused = (status: number, description: string): JobAnswer => ({ status, body: stampedResult(false, JOB_MESSAGES.refusedTitle, description) });

/**
 * POST /admin/monitoring after the route's guards (same origin, `jobs.run`): 413/400 for a body it
 * cannot read, 400 for an unknown intent or job, 409 when the job's latest run did not fail or a retry
 * already waits, else 200 with the run queued (and started here when this process runs the job).
 */
export async function jobAction(request: Request, actor: AuditActor, info: RequestInfo, db: Db = getDb()): Promise<JobAnswer> {
  const read = await readActionForm(request, (message) => stampedResult(false, JOB_MESSAGES.refusedTitle, message));
  if (!read.ok) return read.answer;
  const parsed = JOB_RETRY_SCHEMA.safeParse({ intent: read.form.get("intent"), job: read.form.get("job") });
  if (!parsed.success) {
    const intentOk = JOB_INTENTS.some((i) => i === read.form.get("intent"));
    return refused(400, intentOk ? JOB_MESSAGES.unknownJob : JOB_MESSAGES.intent);
  }
  const { job } = parsed.data;
  const outcome = await db.transaction(async (tx) => {
    // One retry at a time per job: the lock orders two admins' clicks, the second sees the first's row.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('job_runs.retry'), hashtext(${job}))`);
    const [latest] = await tx
      .select({ status: jobRuns.status })
      .from(jobRuns)
      .where(and(eq(jobRuns.job, job), inArray(jobRuns.status, ["succeeded", "failed"])))
      .orderBy(desc(jobRuns.finishedAt), desc(jobRuns.createdAt))
      .limit(1);
    if (latest?.status !== "failed") return "not-failed" as const;
    const [waiting] = await tx.select({ id: jobRuns.id }).from(jobRuns).where(and(eq(jobRuns.job, job), eq(jobRuns.status, "queued"))).limit(1);
    if (waiting) return "already-queued" as const;
    const [queued] = await tx.insert(jobRuns).values({ job, status: "queued", queuedAt: sql`now()`, requestedBy: actor.id }).returning({ id: jobRuns.id });
    await writeAudit(tx, { actor, action: "job.retry", table: "job_runs", recordId: queued?.id ?? null, details: { job }, request: info });
    return "queued" as const;
  });
  if (outcome === "not-failed") return refused(409, JOB_MESSAGES.notFailed);
  if (outcome === "already-queued") return refused(409, JOB_MESSAGES.alreadyQueued);
  const startedHere = runJobNow(job);
  return {
    status: 200,
    body: stampedResult(
      true,
      JOB_MESSAGES.queuedTitle,
      startedHere ? `${JOB_LABELS[job]} is running again now.` : `${JOB_LABELS[job]} will run again at its next turn on a server that runs it.`,
    ),
  };
}
