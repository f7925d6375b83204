import { ScrollText } from "lucide-react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { formatDateTime } from "~/domain/formats";
import { AUDIT_LOG_LIMIT, type AuditLogRow } from "~/domain/monitoring";

/** The latest audit entries of the range. Every value, the details summary included, is plain text. */
export function AuditLogTable({ rows, total, rangeText, timeZone }: { rows: AuditLogRow[]; total: number; rangeText: string; timeZone: string }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle id="audit-log-heading" className="flex items-center gap-2">
          <ScrollText aria-hidden="true" className="size-5" /> Detailed Audit Log
        </CardTitle>
        <CardDescription>
          {total > rows.length
            ? `The latest ${rows.length} of ${total} entries in the ${rangeText}.`
            : `${total} ${total === 1 ? "entry" : "entries"} in the ${rangeText}`}
          {" "}(at most {AUDIT_LOG_LIMIT} are listed; entries can never be changed or deleted).
        </CardDescription>
      </CardHeader>
      <CardContent>
        {rows.length === 0 ? (
          <p className="rounded-lg border border-dashed border-border p-6 text-center text-muted-foreground">No audit entries in the {rangeText}.</p>
        ) : (
          <div role="region" aria-labelledby="audit-log-heading" tabIndex={0} className="relative overflow-x-auto rounded-lg border border-border">
            <table className="w-full min-w-[56rem] text-left text-sm" data-testid="audit-log">
              <thead className="bg-muted text-xs font-semibold tracking-wide text-slate-700 uppercase">
                <tr>
                  <th scope="col" className="px-3 py-2">Time</th>
                  <th scope="col" className="px-3 py-2">Admin</th>
                  <th scope="col" className="px-3 py-2">Action</th>
                  <th scope="col" className="px-3 py-2">Table</th>
                  <th scope="col" className="px-3 py-2">Record ID</th>
                  <th scope="col" className="px-3 py-2">IP address</th>
                  <th scope="col" className="px-3 py-2">Details</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-border align-top">
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
              </tbody>
            </table>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
