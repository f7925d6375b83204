import { clsx, type ClassValue } from "clsx";
import { twMerge } from "tailwind-merge";

/** Joins class names and lets later Tailwind utilities override earlier ones (`cn("px-2", "px-4")` → "px-4"). */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}

/**
 * A UI primitive's component classes (app.css, components layer) plus the caller's: no merge is needed,
 * since any utility in `className` overrides a component class by its layer.
 */
export function withClass(own: string, className: string | undefined): string {
  return className ? `${own} ${className}` : own;
}
