import * as awardIcon from "lucide-react/icons/award";
import * as handHeartIcon from "lucide-react/icons/hand-heart";
import * as shieldCheckIcon from "lucide-react/icons/shield-check";
import * as usersIcon from "lucide-react/icons/users";
import { IconCardList } from "~/components/icon-card-list";
import type { CoreValue } from "~/content/company";
import { inlineIcon, type IconComponent } from "~/components/ui/inline-icon";

const Award = inlineIcon(awardIcon);
const HandHeart = inlineIcon(handHeartIcon);
const ShieldCheck = inlineIcon(shieldCheckIcon);
const Users = inlineIcon(usersIcon);

const icons: Record<CoreValue["icon"], IconComponent> = {
  "shield-check": ShieldCheck,
  users: Users,
  award: Award,
  "hand-heart": HandHeart,
};

export function CoreValues({ values }: { values: readonly CoreValue[] }) {
  return <IconCardList look="value" items={values.map((value) => ({ ...value, Icon: icons[value.icon] }))} />;
}
