import type { ReactNode } from "react";
import { cn } from "~/utils/cn";

/**
 * One term and its value inside a <dl>: a muted label over the value. Every detail card (dashboard,
 * admin client view, document preview) lists its facts with it; the classes adjust the look per card.
 */
export function Detail({
  label,
  children,
  className,
  labelClassName,
  valueClassName = "font-semibold",
}: {
  label: ReactNode;
  children: ReactNode;
  className?: string;
  labelClassName?: string;
  valueClassName?: string;
}) {
  return (
    <div className={className}>
      <dt className={cn("text-muted-foreground", labelClassName)}>{label}</dt>
      <dd className={valueClassName}>{children}</dd>
    </div>
  );
}
