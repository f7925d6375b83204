import { Slot } from "radix-ui";
import type { ComponentProps } from "react";
import { cn } from "~/utils/cn";

const base =
  "inline-flex shrink-0 items-center justify-center gap-2 rounded-md text-sm font-semibold whitespace-nowrap transition-colors " +
  "focus-visible:outline-3 focus-visible:outline-offset-2 disabled:pointer-events-none disabled:opacity-60 " +
  "[&_svg]:pointer-events-none [&_svg]:size-4 [&_svg]:shrink-0";

const variants = {
  default: "bg-primary text-primary-foreground hover:bg-navy-800",
  accent: "bg-accent text-accent-foreground hover:bg-gold-300",
  outline: "border border-primary bg-background text-primary hover:bg-navy-50",
  secondary: "bg-secondary text-secondary-foreground hover:bg-navy-100",
  ghost: "text-foreground hover:bg-muted",
  destructive: "bg-destructive text-destructive-foreground hover:bg-red-800",
  link: "text-link underline-offset-4 hover:underline",
} as const;

const sizes = {
  default: "h-10 px-4 py-2",
  sm: "h-9 px-3",
  lg: "h-11 px-6 text-base",
  icon: "size-10",
} as const;

export type ButtonVariant = keyof typeof variants;
export type ButtonSize = keyof typeof sizes;

export function buttonVariants({
  variant = "default",
  size = "default",
  className,
}: { variant?: ButtonVariant; size?: ButtonSize; className?: string } = {}): string {
  return cn(base, variants[variant], sizes[size], className);
}

export type ButtonProps = ComponentProps<"button"> & {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Render the single child (a Link, an <a>) with the button's look instead of a <button>. */
  asChild?: boolean;
};

export function Button({ className, variant, size, asChild = false, type, ...props }: ButtonProps) {
  if (asChild) return <Slot.Root className={buttonVariants({ variant, size, className })} {...props} />;
  return <button type={type ?? "button"} className={buttonVariants({ variant, size, className })} {...props} />;
}
