import type { ServicingStatus } from "~/domain/loan-servicing";

const STYLE: Record<ServicingStatus, string> = {
  current: "bg-green-100 text-green-900",
  late: "bg-red-100 text-red-900",
  paid_in_full: "bg-blue-100 text-blue-900",
  charged_off: "bg-gray-200 text-gray-900",
  settled: "bg-gray-100 text-gray-900",
};

/** A loan's servicing status (Current, Late, Paid in Full) as a badge. */
export function LoanStatusBadge({ status, label }: { status: ServicingStatus; label: string }) {
  return (
    <span className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ${STYLE[status]}`} data-testid="loan-status">
      {label}
    </span>
  );
}
