import type { ReactNode } from "react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { ScrollingTable, TableHead, type Column } from "~/components/ui/table";

/**
 * A monitoring card holding one table: the titled header, then either a note that the range has no rows
 * or the table (its header from `columns`, its rows as `children`).
 */
export function MonitoringTableCard({
  headingId,
  icon,
  title,
  description,
  empty,
  columns,
  tableClassName,
  bodyClassName,
  testId,
  children,
}: {
  headingId: string;
  icon: ReactNode;
  title: string;
  description: ReactNode;
  /** What to say instead of the table; null when there are rows. */
  empty: string | null;
  columns: readonly Column[];
  tableClassName: string;
  bodyClassName: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle id={headingId} className="flex items-center gap-2">
          {icon} {title}
        </CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        {empty !== null ? (
          <p className="rounded-lg border border-dashed border-border p-6 text-center text-muted-foreground">{empty}</p>
        ) : (
          <ScrollingTable labelledBy={headingId} tableClassName={tableClassName} testId={testId}>
            <TableHead columns={columns} className="bg-muted text-xs font-semibold tracking-wide text-slate-700 uppercase" cellClassName="px-3 py-2" />
            <tbody className={bodyClassName}>{children}</tbody>
          </ScrollingTable>
        )}
      </CardContent>
    </Card>
  );
}
