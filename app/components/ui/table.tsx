import type { ReactNode } from "react";
import { cn } from "~/utils/cn";

/** A column header: its text, or its text and the classes that set it apart (alignment). */
export type Column = string | { label: string; className?: string };

/** A table's header row, one `<th scope="col">` per column, so a table lists its columns as data. */
export function TableHead({ columns, className, cellClassName }: { columns: readonly Column[]; className?: string; cellClassName: string }) {
  return (
    <thead className={className}>
      <tr>
        {columns.map((column) => {
          const { label, className: own } = typeof column === "string" ? { label: column, className: undefined } : column;
          return (
            <th key={label} scope="col" className={cn(cellClassName, own)}>
              {label}
            </th>
          );
        })}
      </tr>
    </thead>
  );
}

/**
 * A wide table in a box that scrolls sideways on narrow screens. The box is a named, focusable region so a
 * keyboard user can scroll it too.
 */
export function ScrollingTable({
  labelledBy,
  tableClassName,
  testId,
  children,
}: {
  labelledBy: string;
  tableClassName: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <div role="region" aria-labelledby={labelledBy} tabIndex={0} className="relative overflow-x-auto rounded-lg border border-border">
      <table className={cn("w-full text-left text-sm", tableClassName)} data-testid={testId}>
        {children}
      </table>
    </div>
  );
}
