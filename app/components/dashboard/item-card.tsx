import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Card } from "~/components/ui/card";
import { cn } from "~/utils/cn";

/** A dashboard entry (a loan, an application): its heading beside its status badge, then its details. */
export function ItemCard({ heading, badge, className, children }: { heading: ReactNode; badge: ReactNode; className?: string; children: ReactNode }) {
  return (
    <Card className={cn("p-5 sm:p-6", className)}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        {heading}
        {badge}
      </div>
      {children}
    </Card>
  );
}

/** What a dashboard section shows while it has nothing to list: an icon over a dashed card's text. */
export function EmptyCard({ icon: Icon, children }: { icon: LucideIcon; children: ReactNode }) {
  return (
    <Card className="mt-5 flex flex-col items-center gap-3 border-dashed px-6 py-10 text-center">
      <Icon aria-hidden="true" className="size-10 text-navy-700" />
      {children}
    </Card>
  );
}
