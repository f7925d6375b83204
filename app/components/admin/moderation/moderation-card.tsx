import type { ReactNode } from "react";
import { useNavigation } from "react-router";
import { Card } from "~/components/ui/card";
import { cn } from "~/utils/cn";

/** The form being posted for this item (its hidden `id`), or null: the item's buttons wait for it. */
export function useSubmittingItem(id: string): FormData | null {
  const navigation = useNavigation();
  return navigation.state !== "idle" && navigation.formData?.get("id") === id ? navigation.formData : null;
}

/** One item of an admin moderation list: an article headed by its title, a line under it and a badge or rating beside. */
export function ModerationCard({
  headingId,
  heading,
  byline,
  aside,
  testId,
  className,
  children,
}: {
  headingId: string;
  heading: ReactNode;
  byline: ReactNode;
  aside: ReactNode;
  testId: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Card role="article" aria-labelledby={headingId} data-testid={testId} className={cn("p-5 sm:p-6", className)}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={headingId} className="text-lg font-semibold break-words text-primary">
            {heading}
          </h2>
          <p className="text-sm break-words text-slate-700">{byline}</p>
        </div>
        {aside}
      </div>
      {children}
    </Card>
  );
}
