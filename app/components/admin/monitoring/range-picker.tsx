import { Link } from "react-router";
import { buttonVariants } from "~/components/ui/button";
import { MONITORING_RANGES, type MonitoringHours } from "~/domain/monitoring";

/** The 6h / 1d / 3d / 7d buttons: plain links to ?hours=…, the current one marked. */
export function RangePicker({ hours }: { hours: MonitoringHours }) {
  return (
    <nav aria-label="Time range">
      <ul className="flex flex-wrap gap-2">
        {MONITORING_RANGES.map((range) => {
          const current = range.hours === hours;
          return (
            <li key={range.hours}>
              <Link
                to={`?hours=${range.hours}`}
                preventScrollReset
                aria-current={current ? "true" : undefined}
                data-testid={`range-${range.hours}`}
                className={buttonVariants({ variant: current ? "default" : "outline", size: "sm", className: "min-w-14" })}
              >
                {range.label}
                <span className="sr-only"> ({range.description})</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
