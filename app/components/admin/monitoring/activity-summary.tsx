import { Users } from "lucide-react";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { formatDateTime } from "~/domain/formats";
import { actionCountBadgeVariant, type AdminActivitySummaryRow } from "~/domain/monitoring";

/** Per-admin activity in the range: name, e-mail, last action, tables touched, action count. */
export function ActivitySummary({ rows, rangeText, timeZone }: { rows: AdminActivitySummaryRow[]; rangeText: string; timeZone: string }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle id="summary-heading" className="flex items-center gap-2">
          <Users aria-hidden="true" className="size-5" /> Admin Activity Summary
        </CardTitle>
        <CardDescription>Actions per admin in the {rangeText}. Counts above 50 are highlighted, above 100 shown in red.</CardDescription>
      </CardHeader>
      <CardContent>
        {rows.length === 0 ? (
          <p className="rounded-lg border border-dashed border-border p-6 text-center text-muted-foreground">
            No admin activity in the {rangeText}.
          </p>
        ) : (
          <div role="region" aria-labelledby="summary-heading" tabIndex={0} className="relative overflow-x-auto rounded-lg border border-border">
            <table className="w-full min-w-[40rem] text-left text-sm" data-testid="activity-summary">
              <thead className="bg-muted text-xs font-semibold tracking-wide text-slate-700 uppercase">
                <tr>
                  <th scope="col" className="px-3 py-2">Admin</th>
                  <th scope="col" className="px-3 py-2">E-mail</th>
                  <th scope="col" className="px-3 py-2">Last action</th>
                  <th scope="col" className="px-3 py-2">Tables accessed</th>
                  <th scope="col" className="px-3 py-2 text-right">Actions</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-border">
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
              </tbody>
            </table>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
