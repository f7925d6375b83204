import { AlertCircle, RefreshCw } from "lucide-react";
import { useEffect } from "react";
import { toast } from "~/components/toaster";
import { AdminShell } from "~/components/admin/admin-shell";
import { useDisplayTimeZone } from "~/components/dashboard/format";
import { Button } from "~/components/ui/button";
import { ActivitySummary } from "./activity-summary";
import { AuditLogTable } from "./audit-log-table";
import { JobsSection } from "./jobs-section";
import { formatTime } from "~/domain/formats";
import type { JobsData } from "~/domain/jobs";
import { MONITORING_RANGES, MONITORING_REFRESH_MS, type MonitoringData } from "~/domain/monitoring";
import { RangePicker } from "./range-picker";
import { SecurityRecommendations } from "./security-recommendations";
import { useAutoRevalidate } from "./use-auto-revalidate";

export const MONITORING_ERROR = "Failed to load monitoring data";

/** /admin/monitoring: range buttons, refresh (manual and every 30 s), per-admin summary, audit log, advice, background jobs. */
export function MonitoringPage({ data, jobs, canRetryJobs }: { data: MonitoringData; jobs: JobsData; canRetryJobs: boolean }) {
  const timeZone = useDisplayTimeZone();
  const { refresh, refreshing } = useAutoRevalidate(MONITORING_REFRESH_MS);
  const rangeText = MONITORING_RANGES.find((r) => r.hours === data.hours)?.description ?? "selected range";

  useEffect(() => {
    if (!data.ok) toast.error(MONITORING_ERROR, { id: "monitoring-load-error", description: "Showing no data. Try Refresh in a moment." });
  }, [data.ok, data.generatedAt]);

  return (
    <AdminShell
      title="Activity Monitoring"
      description="What admins did, from the append-only audit log."
      actions={
        <Button variant="outline" onClick={refresh} disabled={refreshing} aria-describedby="monitoring-updated">
          <RefreshCw aria-hidden="true" className={refreshing ? "animate-spin motion-reduce:animate-none" : undefined} />
          {refreshing ? "Refreshing…" : "Refresh"}
        </Button>
      }
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <RangePicker hours={data.hours} />
        <p id="monitoring-updated" className="text-sm text-slate-600">
          Updated <time dateTime={data.generatedAt}>{formatTime(data.generatedAt, timeZone)}</time>; refreshes every{" "}
          {MONITORING_REFRESH_MS / 1000} seconds.
        </p>
      </div>

      {data.ok ? null : (
        <div role="alert" className="mt-6 flex items-start gap-3 rounded-lg border border-destructive/50 bg-red-50 p-4 text-sm text-red-900">
          <AlertCircle aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
          <p>
            <strong className="font-semibold">{MONITORING_ERROR}.</strong> The audit log could not be read just now; try Refresh in a moment.
          </p>
        </div>
      )}

      {data.ok ? (
        <div className="mt-6 grid gap-6 xl:grid-cols-3">
          <div className="min-w-0 xl:col-span-2">
            <ActivitySummary rows={data.summary} rangeText={rangeText} timeZone={timeZone} />
          </div>
          <div className="min-w-0">
            <SecurityRecommendations summary={data.summary} rangeText={rangeText} />
          </div>
          <div className="min-w-0 xl:col-span-3">
            <AuditLogTable rows={data.log} total={data.totalInRange} rangeText={rangeText} timeZone={timeZone} />
          </div>
        </div>
      ) : (
        <div className="mt-6">
          <SecurityRecommendations summary={null} rangeText={rangeText} />
        </div>
      )}

      <div className="mt-6">
        <JobsSection data={jobs} canRetry={canRetryJobs} timeZone={timeZone} />
      </div>
    </AdminShell>
  );
}
