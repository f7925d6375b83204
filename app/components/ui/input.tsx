import type { ComponentProps } from "react";
import { withClass } from "~/utils/cn";

export function Input({ className, type = "text", ...props }: ComponentProps<"input">) {
  return (
    <input
      type={type}
      className={withClass("field-input", className)}
      {...props}
    />
  );
}
