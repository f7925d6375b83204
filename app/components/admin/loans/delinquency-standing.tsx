import type { ServicingStatus } from "~/domain/loan-servicing";
import { delinquencyBucket, delinquencyBucketLabel } from "~/domain/delinquency";

/**
 * Beside a loan's status on the staff loan page: its days past due and delinquency bucket (the same
 * rule as the loans list and the reports). Nothing for a loan no longer on a schedule (paid in full,
 * charged off, settled).
 */
export function DelinquencyStanding({ status, daysPastDue }: { status: ServicingStatus; daysPastDue: number }) {
  if (status !== "current" && status !== "late") return null;
  const bucket = delinquencyBucket(daysPastDue);
  return (
    <span className="text-sm text-slate-700" data-testid="loan-delinquency" data-bucket={bucket}>
      {daysPastDue} {daysPastDue === 1 ? "day" : "days"} past due · Bucket {delinquencyBucketLabel(bucket)}
    </span>
  );
}
