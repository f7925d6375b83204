import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { JobName } from "~/domain/enums";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import { auditLog, jobRuns } from "~/server/platform/db/schema.server";
import { jobAction, loadJobs } from "~/server/platform/jobs/job-admin.server";
import { JOB_RUNS_KEPT, recordedRuns } from "~/server/platform/jobs/job-runs.server";
import { startRepeatingJob } from "~/server/platform/jobs/repeating-job.server";
import { setUpTestConfig } from "../helpers/temp-config";
import { testTargets, useTestDatabase } from "../helpers/test-db";

/** Background job runs in job_runs, the Jobs section's data, and Retry (decision 0081). */

setUpTestConfig("job-runs", { APP_SECRET: "j".repeat(48) });

const retryForm = (fields: Record<string, string>) =>
  new Request("https://loans.example.com/admin/monitoring", { method: "POST", body: new URLSearchParams(fields), headers: { "Content-Type": "application/x-www-form-urlencoded" } });

const until = async (check: () => Promise<boolean>) => {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("timed out");
};

describe.each(testTargets)("job runs on %s", (target) => {
  const database = useTestDatabase({ target });
  const db = () => database().db;
  const admin: AuditActor = { id: `jobs-admin-${target}`, name: "Ada Admin", email: "ada@example.com" };
  const runsOf = (job: JobName) => db().select().from(jobRuns).where(eq(jobRuns.job, job));

  it("records a run that succeeded and one that failed, keeping the error's description, not its message", async () => {
    const ok = recordedRuns(db(), "retention", async () => 7);
    expect(await ok(new AbortController().signal)).toBe(7);
    const failing = recordedRuns(db(), "retention", async () => {
      throw new Error("SSN 123-45-6789 could not be read");
    });
    await expect(failing(new AbortController().signal)).rejects.toThrow("could not be read");
    const rows = await runsOf("retention");
    expect(rows.map((r) => r.status).sort()).toEqual(["failed", "succeeded"]);
    const failed = rows.find((r) => r.status === "failed")!;
    expect(failed.error).toMatch(/^Error/);
    expect(failed.error).not.toContain("123-45-6789");
    expect(failed.startedAt).not.toBeNull();
    expect(failed.finishedAt).not.toBeNull();
    expect(failed.instance).toMatch(/:\d+$/);
  });

  it("shows each job with its queued and running runs and the latest failure with its error", async () => {
    const data = await loadJobs(db());
    if (!data.ok) throw new Error("not loaded");
    const retention = data.jobs.find((j) => j.job === "retention")!;
    expect(retention.last?.status).toBe("failed");
    expect(retention.failed?.error).toMatch(/^Error/);
    expect(data.jobs.find((j) => j.job === "servicing")).toEqual({ job: "servicing", queued: 0, running: 0, last: null, failed: null });
  });

  it("Retry queues a run of a failed job (audited), and the job running in this process takes it at once", async () => {
    let runs = 0;
    const job = startRepeatingJob({
      run: async () => {
        runs += 1;
      },
      onDone: () => undefined,
      onError: () => undefined,
      intervalMs: 3_600_000,
      firstRunDelayMs: 3_600_000,
      record: { db: db(), job: "retention" },
    });
    try {
      const answer = await jobAction(retryForm({ intent: "retry-job", job: "retention" }), admin, { ip: "203.0.113.9" }, db());
      expect(answer.status).toBe(200);
      expect(answer.body.toast.title).toBe("Retry Started");
      expect(answer.body.toast.description).toBe("Records retention is running again now.");
      await until(async () => runs === 1 && (await runsOf("retention")).some((r) => r.requestedBy === admin.id && r.status === "succeeded"));
      const audits = await db().select().from(auditLog).where(and(eq(auditLog.action, "job.retry"), eq(auditLog.actorId, admin.id)));
      expect(audits).toHaveLength(1);
      expect(audits[0]!.details).toEqual({ job: "retention" });
      // The latest run succeeded: nothing to retry.
      const again = await jobAction(retryForm({ intent: "retry-job", job: "retention" }), admin, {}, db());
      expect(again.status).toBe(409);
      expect(again.body.toast.description).toBe("This job's latest run did not fail: there is nothing to retry.");
    } finally {
      await job.stop();
    }
  });

  it("a job not running in this process keeps the queued run for its next start; a second Retry meanwhile is refused", async () => {
    await recordedRuns(db(), "servicing", async () => {
      throw new Error("down");
    })(new AbortController().signal).catch(() => undefined);
    const first = await jobAction(retryForm({ intent: "retry-job", job: "servicing" }), admin, {}, db());
    expect(first.status).toBe(200);
    expect(first.body.toast.description).toBe("Loan servicing will run again at its next turn on a server that runs it.");
    const second = await jobAction(retryForm({ intent: "retry-job", job: "servicing" }), admin, {}, db());
    expect(second.status).toBe(409);
    expect(second.body.toast.description).toBe("A retry of this job is already waiting to run.");
    const data = await loadJobs(db());
    expect(data.ok && data.jobs.find((j) => j.job === "servicing")?.queued).toBe(1);
    // The next run claims the queued row instead of adding one.
    await recordedRuns(db(), "servicing", async () => undefined)(new AbortController().signal);
    const rows = await runsOf("servicing");
    expect(rows.map((r) => r.status).sort()).toEqual(["failed", "succeeded"]);
    expect(rows.find((r) => r.status === "succeeded")?.requestedBy).toBe(admin.id);
  });

  it("refuses an unknown intent or job with 400 and writes nothing", async () => {
    const before = (await db().select().from(jobRuns)).length;
    for (const fields of [{ intent: "nonsense", job: "retention" }, { intent: "retry-job", job: "mining" }, { intent: "retry-job" }] as Record<string, string>[]) {
      const answer = await jobAction(retryForm(fields), admin, {}, db());
      expect(answer.status, JSON.stringify(fields)).toBe(400);
    }
    expect((await db().select().from(jobRuns)).length).toBe(before);
  });

  it(`keeps the last ${JOB_RUNS_KEPT} runs of a job`, async () => {
    const run = recordedRuns(db(), "data-export", async () => undefined);
    for (let i = 0; i < JOB_RUNS_KEPT + 5; i++) await run(new AbortController().signal);
    expect(await runsOf("data-export")).toHaveLength(JOB_RUNS_KEPT);
  });
});
