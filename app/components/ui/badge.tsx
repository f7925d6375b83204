import type { ComponentProps } from "react";
import { withClass } from "~/utils/cn";

// The class lists live in app.css (components layer): .badge and .badge-<variant>.
const variants = {
  default: "badge-default",
  secondary: "badge-secondary",
  accent: "badge-accent",
  outline: "badge-outline",
  destructive: "badge-destructive",
  success: "badge-success",
  warning: "badge-warning",
  info: "badge-info",
} as const;

export type BadgeVariant = keyof typeof variants;

export function Badge({
  className,
  variant = "default",
  ...props
}: ComponentProps<"span"> & { variant?: BadgeVariant }) {
  return (
    <span
      className={withClass(`badge ${variants[variant]}`, className)}
      {...props}
    />
  );
}
