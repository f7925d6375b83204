import { ChevronRight } from "lucide-react";
import { useId, useState } from "react";
import { formatMoney } from "~/domain/money";
import type { YearRow } from "~/domain/loan-math";
import { cn } from "~/utils/cn";

/** The schedule's column headings; the first (the year) is left-aligned, the figures right-aligned. */
const COLUMNS = [
  "Year",
  "Payments",
  "Principal",
  "Interest",
  "Remaining Balance",
] as const;

/**
 * The amortization schedule as a table: one row per year (payments, principal, interest, balance at
 * the year's end); each year's button shows or hides that year's months right below it. On a phone the
 * five columns are wider than the screen: the table scrolls sideways inside its frame, its title and a
 * "scroll sideways" hint stay outside the scrolling part (so they are never cut off), and the Year /
 * Month column stays in place while the figures scroll.
 */
export function AmortizationSchedule({
  years,
  className,
}: {
  years: YearRow[];
  className?: string;
}) {
  const id = useId();
  const [open, setOpen] = useState<ReadonlySet<number>>(() => new Set());
  const toggle = (year: number) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(year)) next.delete(year);
      else next.add(year);
      return next;
    });
  const titleId = `${id}-title`;
  const hintId = `${id}-hint`;

  return (
    <div className={cn("rounded-lg border border-border", className)}>
      <div className="px-4 py-3">
        <p id={titleId} className="text-base font-semibold text-primary">
          Amortization schedule
        </p>
        <p id={hintId} className="text-sm text-muted-foreground">
          Yearly totals; choose a year to show or hide its months.
          <span className="sm:hidden">
            {" "}
            Scroll the table sideways to see every column.
          </span>
        </p>
      </div>
      <div
        className="overflow-x-auto"
        role="region"
        aria-labelledby={titleId}
        aria-describedby={hintId}
        tabIndex={0}
      >
        <table
          className="w-full min-w-[36rem] border-collapse text-sm"
          aria-labelledby={titleId}
          data-testid="amortization-schedule"
        >
          <thead className="bg-muted text-left">
            <tr>
              {COLUMNS.map((column, index) => (
                <th
                  key={column}
                  scope="col"
                  className={
                    index === 0
                      ? "sticky left-0 z-10 bg-muted px-4 py-2 font-semibold"
                      : "px-4 py-2 text-right font-semibold"
                  }
                >
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          {years.map((row) => {
            const expanded = open.has(row.year);
            const monthsId = `${id}-year-${row.year}`;
            return (
              <YearGroup
                key={row.year}
                row={row}
                expanded={expanded}
                monthsId={monthsId}
                onToggle={() => toggle(row.year)}
              />
            );
          })}
        </table>
      </div>
    </div>
  );
}

/** A row's four figures: payments, principal, interest and the balance left at its end. */
function AmountCells({
  amounts,
}: {
  amounts: Pick<YearRow, "paymentCents" | "principalCents" | "interestCents" | "balanceCents">;
}) {
  return (
    <>
      {[
        amounts.paymentCents,
        amounts.principalCents,
        amounts.interestCents,
        amounts.balanceCents,
      ].map((amount, index) => (
        <td key={index} className="px-4 py-1 text-right tabular-nums">
          {formatMoney(amount)}
        </td>
      ))}
    </>
  );
}

function YearGroup({
  row,
  expanded,
  monthsId,
  onToggle,
}: {
  row: YearRow;
  expanded: boolean;
  monthsId: string;
  onToggle: () => void;
}) {
  return (
    <>
      <tbody className="border-t border-border">
        <tr>
          <th
            scope="row"
            className="sticky left-0 z-10 bg-card px-2 py-1 text-left font-semibold"
          >
            <button
              type="button"
              aria-expanded={expanded}
              aria-controls={monthsId}
              onClick={onToggle}
              className="inline-flex min-h-9 items-center gap-1 rounded-md px-2 whitespace-nowrap text-primary hover:bg-muted"
            >
              <ChevronRight
                aria-hidden="true"
                className={cn(
                  "size-4 transition-transform motion-reduce:transition-none",
                  expanded && "rotate-90",
                )}
              />
              Year {row.year}
            </button>
          </th>
          <AmountCells amounts={row} />
        </tr>
      </tbody>
      <tbody id={monthsId} hidden={!expanded} className="bg-navy-50">
        {expanded
          ? row.months.map((m) => (
              <tr key={m.month} className="border-t border-border/60">
                <th
                  scope="row"
                  className="sticky left-0 z-10 bg-navy-50 py-1 pr-4 pl-10 text-left font-normal whitespace-nowrap text-muted-foreground"
                >
                  Month {m.month}
                </th>
                <AmountCells amounts={m} />
              </tr>
            ))
          : null}
      </tbody>
    </>
  );
}
