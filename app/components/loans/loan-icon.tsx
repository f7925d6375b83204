import * as briefcaseIcon from "lucide-react/icons/briefcase";
import * as building2Icon from "lucide-react/icons/building-complex";
import * as carIcon from "lucide-react/icons/car";
import * as gemIcon from "lucide-react/icons/gem";
import * as hammerIcon from "lucide-react/icons/hammer";
import * as layersIcon from "lucide-react/icons/layers";
import * as userRoundIcon from "lucide-react/icons/user-round";
import type { LoanIconName } from "~/content/loans";
import { inlineIcons, type IconComponent } from "~/components/ui/inline-icon";

const [Briefcase, Building2, Car, Gem, Hammer, Layers, UserRound] = inlineIcons(
  briefcaseIcon, building2Icon, carIcon, gemIcon, hammerIcon, layersIcon, userRoundIcon,
);

const icons: Record<LoanIconName, IconComponent> = {
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
