import type { ReactNode } from "react";
import { Link } from "react-router";
import { cn } from "~/utils/cn";
import { Button, type ButtonSize, type ButtonVariant } from "./ui/button";
import { type IconComponent } from "~/components/ui/inline-icon";

/** The outlined button on navy backgrounds (hero, closing calls to action). */
const onDarkOutline = "border-white bg-transparent text-white hover:bg-white/10";

/**
 * A link drawn as a button, with an optional icon before the label (`icon`) or after it (`iconAfter`).
 * `tone="on-dark"` is the white outlined button used on navy backgrounds. Server-rendered: no state.
 */
export function LinkButton({
  to,
  variant = "default",
  tone,
  size,
  icon: Icon,
  iconAfter: IconAfter,
  className,
  children,
}: {
  to: string;
  variant?: ButtonVariant;
  tone?: "on-dark";
  size?: ButtonSize;
  icon?: IconComponent;
  iconAfter?: IconComponent;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Button
      asChild
      variant={tone === "on-dark" ? "outline" : variant}
      size={size}
      className={tone === "on-dark" ? cn(onDarkOutline, className) : className}
    >
      <Link to={to}>
        {Icon ? <Icon aria-hidden="true" /> : null}
        {children}
        {IconAfter ? <IconAfter aria-hidden="true" /> : null}
      </Link>
    </Button>
  );
}

/** A row of call-to-action buttons: stacked on phones, side by side from `sm`. */
export function ButtonRow({ centered = false, className, children }: { centered?: boolean; className?: string; children: ReactNode }) {
  // Class order as written before this component existed (the same bytes in the cached pages).
  return <div className={cn(className, "flex flex-col", centered && "justify-center", "gap-3 sm:flex-row")}>{children}</div>;
}
