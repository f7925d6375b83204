import { Tabs as TabsPrimitive } from "radix-ui";
import type { ComponentProps } from "react";
import { cn } from "~/utils/cn";

/**
 * Radix Tabs with the site's look. Keyboard: Left/Right (or Up/Down when vertical) move between tabs,
 * Home/End jump, Tab moves into the panel. The panel is labelled by its tab.
 */
export function Tabs({ className, ...props }: ComponentProps<typeof TabsPrimitive.Root>) {
  return <TabsPrimitive.Root className={cn("flex flex-col gap-4", className)} {...props} />;
}

export function TabsList({ className, ...props }: ComponentProps<typeof TabsPrimitive.List>) {
  return (
    <TabsPrimitive.List
      className={cn("inline-flex h-11 w-full items-center gap-1 rounded-lg bg-muted p-1 text-muted-foreground", className)}
      {...props}
    />
  );
}

export function TabsTrigger({ className, ...props }: ComponentProps<typeof TabsPrimitive.Trigger>) {
  return (
    <TabsPrimitive.Trigger
      className={cn(
        "inline-flex h-full flex-1 items-center justify-center gap-2 rounded-md px-3 text-center text-sm leading-tight font-semibold whitespace-nowrap transition-colors",
        "hover:text-primary focus-visible:outline-3 focus-visible:outline-offset-1 disabled:pointer-events-none disabled:opacity-60",
        "data-[state=active]:bg-background data-[state=active]:text-primary data-[state=active]:shadow-sm",
        "[&_svg]:size-4 [&_svg]:shrink-0",
        className,
      )}
      {...props}
    />
  );
}

/**
 * A tab panel. With `forceMount` an inactive panel stays mounted (its form keeps what was typed) but is
 * hidden through its data-state, which also holds before hydration.
 */
export function TabsContent({ className, ...props }: ComponentProps<typeof TabsPrimitive.Content>) {
  return (
    <TabsPrimitive.Content
      className={cn("focus-visible:outline-3 focus-visible:outline-offset-2 data-[state=inactive]:hidden", className)}
      {...props}
    />
  );
}
