import * as awardIcon from "lucide-react/icons/award";
import * as handHeartIcon from "lucide-react/icons/hand-heart";
import * as shieldCheckIcon from "lucide-react/icons/shield-check";
import * as usersIcon from "lucide-react/icons/users";
import { IconCardList } from "~/components/icon-card-list";
import type { CoreValue } from "~/content/company";
import { inlineIcons, type IconComponent } from "~/components/ui/inline-icon";

const [Award, HandHeart, ShieldCheck, Users] = inlineIcons(awardIcon, handHeartIcon, shieldCheckIcon, usersIcon);

const icons: Record<CoreValue["icon"], IconComponent> = {
  "shield-check": ShieldCheck,
  users: Users,
  award: Award,
  "hand-heart": HandHeart,
};

export function CoreValues({ values }: { values: readonly CoreValue[] }) {
  return <IconCardList look="value" items={values.map((value) => ({ ...value, Icon: icons[value.icon] }))} />;
}
