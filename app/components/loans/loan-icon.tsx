import { Briefcase, Building2, Car, Gem, Hammer, Layers, UserRound, type LucideIcon } from "lucide-react";
import type { LoanIconName } from "~/content/loans";

const icons: Record<LoanIconName, LucideIcon> = {
  user: UserRound,
  briefcase: Briefcase,
  gem: Gem,
  building: Building2,
  layers: Layers,
  car: Car,
  hammer: Hammer,
};

/** The loan's small icon. Decorative: the loan's title is always next to it. */
export function LoanIcon({ name, className }: { name: LoanIconName; className?: string }) {
  const Icon = icons[name];
  return <Icon aria-hidden="true" className={className} />;
}
