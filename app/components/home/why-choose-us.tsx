import * as lockIcon from "lucide-react/icons/lock";
import * as shieldCheckIcon from "lucide-react/icons/shield-check";
import * as slidersHorizontalIcon from "lucide-react/icons/sliders-horizontal";
import * as zapIcon from "lucide-react/icons/zap";
import { IconCardList } from "~/components/icon-card-list";
import { benefits, type BenefitIconName } from "~/content/benefits";
import { HomeSection } from "./section-heading";
import { inlineIcons, type IconComponent } from "~/components/ui/inline-icon";

const [Lock, ShieldCheck, SlidersHorizontal, Zap] = inlineIcons(lockIcon, shieldCheckIcon, slidersHorizontalIcon, zapIcon);

const icons: Record<BenefitIconName, IconComponent> = { zap: Zap, lock: Lock, sliders: SlidersHorizontal, shield: ShieldCheck };

/** Why choose us: the four benefits (docs/requirements.md §2). */
export function WhyChooseUs() {
  return (
    <HomeSection
      id="why-title"
      className="bg-navy-50"
      eyebrow="Why Choose Us"
      title="Private Lending, Done Right"
      intro="Fifteen years of lending have taught us what borrowers value most: speed, discretion, flexibility and honesty."
    >
      <IconCardList
        look="benefit"
        className="mt-12"
        items={benefits.map((benefit) => ({ ...benefit, Icon: icons[benefit.icon] }))}
      />
    </HomeSection>
  );
}
