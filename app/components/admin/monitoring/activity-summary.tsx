import { Users } from "lucide-react";
import { Badge } from "~/components/ui/badge";
import { formatDateTime } from "~/domain/formats";
import { actionCountBadgeVariant, type AdminActivitySummaryRow } from "~/domain/monitoring";
import { MonitoringTableCard } from "./table-card";

const SUMMARY_COLUMNS = ["Admin", "E-mail", "Last action", "Tables accessed", { label: "Actions", className: "text-right" }] as const;

/** Per-admin activity in the range: name, e-mail, last action, tables touched, action count. */
export function ActivitySummary({ rows, rangeText, timeZone }: { rows: AdminActivitySummaryRow[]; rangeText: string; timeZone: string }) {
  return (
    <MonitoringTableCard
      headingId="summary-heading"
      icon={<Users aria-hidden="true" className="size-5" />}
      title="Admin Activity Summary"
      description={`Actions per admin in the ${rangeText}. Counts above 50 are highlighted, above 100 shown in red.`}
      empty={rows.length === 0 ? `No admin activity in the ${rangeText}.` : null}
      columns={SUMMARY_COLUMNS}
      tableClassName="min-w-[40rem]"
      bodyClassName="divide-y divide-border"
      testId="activity-summary"
    >
      {rows.map((row) => {
        const variant = actionCountBadgeVariant(row.actionCount);
        return (
          <tr key={row.adminId} data-admin-email={row.adminEmail}>
            <th scope="row" className="px-3 py-2 font-medium text-slate-900">{row.adminName}</th>
            <td className="px-3 py-2 whitespace-nowrap text-slate-700">{row.adminEmail}</td>
            <td className="px-3 py-2 whitespace-nowrap text-slate-700">
              <time dateTime={row.lastAction}>{formatDateTime(row.lastAction, timeZone, { seconds: true, zone: true })}</time>
            </td>
            <td className="px-3 py-2">
              {row.tablesAccessed.length === 0 ? (
                <span className="text-muted-foreground">—</span>
              ) : (
                <ul className="flex flex-wrap gap-1" aria-label={`Tables accessed by ${row.adminName}`}>
                  {row.tablesAccessed.map((t) => (
                    <li key={t}>
                      <Badge variant="outline" className="font-mono font-normal">
                        {t}
                      </Badge>
                    </li>
                  ))}
                </ul>
              )}
            </td>
            <td className="px-3 py-2 text-right">
              <Badge variant={variant} data-variant={variant} data-testid="action-count">
                {row.actionCount}
              </Badge>
              <span className="sr-only">{row.actionCount === 1 ? " action" : " actions"}</span>
            </td>
          </tr>
        );
      })}
    </MonitoringTableCard>
  );
}
