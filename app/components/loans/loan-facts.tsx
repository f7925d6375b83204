import * as calendarClockIcon from "lucide-react/icons/calendar-clock";
import * as circleDollarSignIcon from "lucide-react/icons/circle-dollar-sign";
import * as percentIcon from "lucide-react/icons/percent";
import * as timerIcon from "lucide-react/icons/timer";
import type { LoanProduct } from "~/content/loans";
import { cn } from "~/utils/cn";
import { inlineIcons } from "~/components/ui/inline-icon";

const [CalendarClock, CircleDollarSign, Percent, Timer] = inlineIcons(calendarClockIcon, circleDollarSignIcon, percentIcon, timerIcon);

/**
 * Amount, rate, term (and closing time for hard money) as a description list. `tone` picks colours
 * that keep AA contrast on a light card or on the navy background.
 */
export function LoanFacts({
  loan,
  tone = "light",
  className,
}: {
  loan: LoanProduct;
  tone?: "light" | "dark";
  className?: string;
}) {
  const rows = [
    { label: "Loan amount", value: loan.amount.display, Icon: CircleDollarSign },
    { label: "Interest rate", value: loan.rate.display, Icon: Percent },
    { label: "Loan term", value: loan.term.display, Icon: CalendarClock },
    ...(loan.closing ? [{ label: "Closing", value: `In ${loan.closing}`, Icon: Timer }] : []),
  ];
  return (
    <dl className={cn("grid gap-3", className)}>
      {rows.map(({ label, value, Icon }) => (
        <div key={label} className="grid grid-cols-[1.25rem_1fr] gap-x-3">
          <dt
            className={cn(
              "col-span-2 grid grid-cols-subgrid items-center text-xs font-semibold tracking-wide uppercase",
              tone === "dark" ? "text-navy-100" : "text-muted-foreground",
            )}
          >
            <Icon aria-hidden="true" className={cn("size-5", tone === "dark" ? "text-gold-400" : "text-gold-700")} />
            <span>{label}</span>
          </dt>
          <dd className={cn("col-start-2 font-semibold", tone === "dark" ? "text-white" : "text-foreground")}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
