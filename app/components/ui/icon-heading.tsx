import type { ReactNode } from "react";
import type { IconComponent } from "~/components/ui/inline-icon";

/** A section's h2 with a decorative icon before it, on one line. */
export function IconHeading({ icon: Icon, iconClassName, id, className, children }: { icon: IconComponent; iconClassName: string; id: string; className: string; children: ReactNode }) {
  return (
    <div className="flex items-center gap-3">
      <Icon aria-hidden="true" className={iconClassName} />
      <h2 id={id} className={className}>
        {children}
      </h2>
    </div>
  );
}
