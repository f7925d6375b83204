import { Label as LabelPrimitive } from "radix-ui";
import type { ComponentProps } from "react";
import { withClass } from "~/utils/cn";

export function Label({ className, ...props }: ComponentProps<typeof LabelPrimitive.Root>) {
  return (
    <LabelPrimitive.Root
      className={withClass("field-label", className)}
      {...props}
    />
  );
}
