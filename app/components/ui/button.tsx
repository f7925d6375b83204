import { Slot } from "radix-ui";
import type { ComponentProps } from "react";
import { withClass } from "~/utils/cn";

// The class lists live in app.css (components layer): .btn, .btn-<variant>, .btn-<size>.
const variants = {
  default: "btn-default",
  accent: "btn-accent",
  outline: "btn-outline",
  secondary: "btn-secondary",
  ghost: "btn-ghost",
  destructive: "btn-destructive",
  link: "btn-link",
} as const;

const sizes = {
  default: "btn-md",
  sm: "btn-sm",
  lg: "btn-lg",
  icon: "btn-icon",
} as const;

export type ButtonVariant = keyof typeof variants;
export type ButtonSize = keyof typeof sizes;

export function buttonVariants({
  variant = "default",
  size = "default",
  className,
}: { variant?: ButtonVariant; size?: ButtonSize; className?: string } = {}): string {
  return withClass(`btn ${variants[variant]} ${sizes[size]}`, className);
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
