import { Award, HandHeart, ShieldCheck, Users, type LucideIcon } from "lucide-react";
import type { CoreValue } from "~/content/company";

const icons: Record<CoreValue["icon"], LucideIcon> = {
  "shield-check": ShieldCheck,
  users: Users,
  award: Award,
  "hand-heart": HandHeart,
};

export function CoreValues({ values }: { values: readonly CoreValue[] }) {
  return (
    <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
      {values.map((value) => {
        const Icon = icons[value.icon];
        return (
          <li key={value.title} className="rounded-xl border border-border bg-card p-6 shadow-sm">
            <span className="inline-flex size-12 items-center justify-center rounded-full bg-navy-100 text-primary">
              <Icon aria-hidden="true" className="size-6" />
            </span>
            <h3 className="mt-4 text-lg font-semibold text-primary">{value.title}</h3>
            <p className="mt-2 text-sm text-muted-foreground">{value.description}</p>
          </li>
        );
      })}
    </ul>
  );
}
