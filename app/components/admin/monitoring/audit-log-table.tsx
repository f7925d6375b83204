import { ScrollText } from "lucide-react";
import { formatDateTime } from "~/domain/formats";
import { AUDIT_LOG_LIMIT, type AuditLogRow } from "~/domain/monitoring";
import { MonitoringTableCard } from "./table-card";

const AUDIT_COLUMNS = ["Time", "Admin", "Action", "Table", "Record ID", "IP address", "Details"] as const;

/** The latest audit entries of the range. Every value, the details summary included, is plain text. */
export function AuditLogTable({ rows, total, rangeText, timeZone }: { rows: AuditLogRow[]; total: number; rangeText: string; timeZone: string }) {
  return (
    <MonitoringTableCard
      headingId="audit-log-heading"
      icon={<ScrollText aria-hidden="true" className="size-5" />}
      title="Detailed Audit Log"
      description={
        <>
          {total > rows.length
            ? `The latest ${rows.length} of ${total} entries in the ${rangeText}.`
            : `${total} ${total === 1 ? "entry" : "entries"} in the ${rangeText}`}
          {" "}(at most {AUDIT_LOG_LIMIT} are listed; entries can never be changed or deleted).
        </>
      }
      empty={rows.length === 0 ? `No audit entries in the ${rangeText}.` : null}
      columns={AUDIT_COLUMNS}
      tableClassName="min-w-[56rem]"
      bodyClassName="divide-y divide-border align-top"
      testId="audit-log"
    >
      {rows.map((row) => (
        <tr key={row.id} data-action={row.action}>
          <td className="px-3 py-2 whitespace-nowrap text-slate-700">
            <time dateTime={row.createdAt}>{formatDateTime(row.createdAt, timeZone, { seconds: true, zone: true })}</time>
          </td>
          <td className="px-3 py-2">
            <span className="block font-medium text-slate-900">{row.adminName}</span>
            {row.adminEmail ? <span className="block text-xs whitespace-nowrap text-slate-600">{row.adminEmail}</span> : null}
          </td>
          <td className="px-3 py-2 font-mono text-xs whitespace-nowrap text-slate-900">{row.action}</td>
          <td className="px-3 py-2 font-mono text-xs text-slate-700">{row.tableName ?? "—"}</td>
          <td className="max-w-[12rem] px-3 py-2 font-mono text-xs break-all text-slate-700">{row.recordId ?? "—"}</td>
          <td className="px-3 py-2 font-mono text-xs whitespace-nowrap text-slate-700">{row.ipAddress ?? "—"}</td>
          <td className="max-w-[20rem] px-3 py-2 text-xs break-words text-slate-700">{row.details || "—"}</td>
        </tr>
      ))}
    </MonitoringTableCard>
  );
}
