import type { ApplicationStatus, LoanType } from "~/domain/enums";
import type { PageCursors } from "~/domain/paging";
import type { ReportRange } from "~/domain/validation/reports";

/** What the Pipeline Reports page shows (app/server/staff/pipeline-report.server.ts builds it). Pure, no I/O. */

export type PipelineReport = {
  range: ReportRange;
  generatedAt: string;
  byStatus: { status: ApplicationStatus; count: number }[];
  ageing: { key: string; label: string; count: number }[];
  medianDecision: { days: string | null; decisions: number };
  perOfficer: { officerId: string | null; name: string; approved: number; denied: number; incomplete: number; total: number }[];
  denialReasons: { reason: string; count: number }[];
  approvalRate: { loanType: LoanType; approved: number; decided: number; rateTenths: number | null }[];
  /** Every flagged application counted; one page of them listed, oldest first (keyset: the tokens either side). */
  regB: {
    count: number;
    items: RegBItem[];
    page: number;
    pageCount: number;
    cursors: PageCursors;
  };
};

export type RegBItem = { id: string; applicantName: string; loanType: LoanType; completeSince: string; decideBy: string; daysLeft: number };

/** part / whole in tenths of a percent, rounded half up, exactly (integers only). */
export function rateTenths(part: number, whole: number): number | null {
  if (whole <= 0) return null;
  return Math.floor((part * 2000 + whole) / (2 * whole));
}

/** Tenths of a percent as "66.7%" (integer arithmetic end to end). */
export function formatTenths(tenths: number | null): string {
  return tenths === null ? "—" : `${Math.floor(tenths / 10)}.${tenths % 10}%`;
}
