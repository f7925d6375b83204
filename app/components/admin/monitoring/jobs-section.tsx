import { ListChecks, RotateCcw } from "lucide-react";
import { Badge } from "~/components/ui/badge";
import { useFormFetcher } from "~/components/ui/form";
import { PendingButton } from "~/components/ui/pending-button";
import { formatDateTime } from "~/domain/formats";
import type { JobActionData, JobRunView, JobsData, JobSummary } from "~/domain/jobs";
import { JOB_LABELS } from "~/domain/labels";
import { MonitoringTableCard } from "./table-card";

const JOB_COLUMNS = ["Job", { label: "Queued", className: "text-right" }, { label: "Running", className: "text-right" }, "Last run", "Failed", { label: "Action", className: "sr-only" }] as const;

function RunTime({ run, timeZone }: { run: JobRunView; timeZone: string }) {
  const at = run.finishedAt ?? run.startedAt;
  return at ? <time dateTime={at}>{formatDateTime(at, timeZone, { seconds: true, zone: true })}</time> : <span className="text-muted-foreground">—</span>;
}

/** Retry for one failed job: posts the job's name; the answer is a toast, and the page reloads its data. */
function RetryButton({ job }: { job: JobSummary }) {
  const { fetcher, pending } = useFormFetcher<JobActionData>(undefined);
  const label = JOB_LABELS[job.job];
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value="retry-job" />
      <input type="hidden" name="job" value={job.job} />
      <PendingButton type="submit" variant="outline" size="sm" pending={pending} icon={<RotateCcw aria-hidden="true" />} aria-label={`Retry ${label}`}>
        Retry
      </PendingButton>
    </fetcher.Form>
  );
}

/**
 * The background jobs (decision 0081): per job, runs waiting (an admin's Retry) and in progress, the
 * latest finished run, and when it failed, the error and (for roles that may) a Retry button.
 */
export function JobsSection({ data, canRetry, timeZone }: { data: JobsData; canRetry: boolean; timeZone: string }) {
  return (
    <MonitoringTableCard
      headingId="jobs-heading"
      icon={<ListChecks aria-hidden="true" className="size-5" />}
      title="Jobs"
      description="Background work every server runs on a timer: what waits, what runs, and the latest run's outcome."
      empty={data.ok ? null : "The job runs could not be read just now; try Refresh in a moment."}
      columns={JOB_COLUMNS}
      tableClassName="min-w-[48rem]"
      bodyClassName="divide-y divide-border"
      testId="jobs-table"
    >
      {data.ok
        ? data.jobs.map((job) => (
            <tr key={job.job} data-job={job.job}>
              <th scope="row" className="px-3 py-2 font-medium text-slate-900">{JOB_LABELS[job.job]}</th>
              <td className="px-3 py-2 text-right tabular-nums" data-testid="job-queued">{job.queued}</td>
              <td className="px-3 py-2 text-right tabular-nums" data-testid="job-running">{job.running}</td>
              <td className="px-3 py-2 whitespace-nowrap text-slate-700">
                {job.last ? (
                  <>
                    <Badge variant={job.last.status === "failed" ? "destructive" : "success"} className="mr-2">
                      {job.last.status === "failed" ? "Failed" : "Succeeded"}
                    </Badge>
                    <RunTime run={job.last} timeZone={timeZone} />
                  </>
                ) : (
                  <span className="text-muted-foreground">Not run yet</span>
                )}
              </td>
              <td className="px-3 py-2 text-slate-700" data-testid="job-error">
                {job.failed ? <span className="font-mono text-xs break-all">{job.failed.error ?? "No error recorded"}</span> : <span className="text-muted-foreground">—</span>}
              </td>
              <td className="px-3 py-2 text-right">{job.failed && canRetry ? <RetryButton job={job} /> : null}</td>
            </tr>
          ))
        : null}
    </MonitoringTableCard>
  );
}
