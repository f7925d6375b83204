import type { Stat } from "~/content/company";
import { cn } from "~/utils/cn";

/**
 * A row of headline figures as a description list (label, then figure; the figure is shown first).
 * `tone="dark"` for a navy band.
 */
export function StatsGrid({ stats, tone = "light", className }: { stats: readonly Stat[]; tone?: "light" | "dark"; className?: string }) {
  const dark = tone === "dark";
  return (
    <dl
      className={cn(
        "grid grid-cols-2 gap-4 sm:gap-6",
        stats.length === 5 ? "lg:grid-cols-5" : "lg:grid-cols-4",
        className,
      )}
    >
      {stats.map((stat, index) => (
        <div
          key={stat.label}
          className={cn(
            "flex flex-col-reverse items-center rounded-xl p-4 text-center sm:p-6",
            dark ? "bg-navy-800" : "border border-border bg-card shadow-sm",
            stats.length % 2 === 1 && index === stats.length - 1 && "col-span-2 lg:col-span-1",
          )}
        >
          <dt className={cn("mt-1 text-sm font-medium", dark ? "text-slate-200" : "text-muted-foreground")}>{stat.label}</dt>
          <dd className={cn("text-3xl font-extrabold tracking-tight sm:text-4xl", dark ? "text-gold-400" : "text-primary")}>
            {stat.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
