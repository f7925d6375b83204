import { Award, HandHeart, ShieldCheck, Users, type LucideIcon } from "lucide-react";
import { IconCardList } from "~/components/icon-card-list";
import type { CoreValue } from "~/content/company";

const icons: Record<CoreValue["icon"], LucideIcon> = {
  "shield-check": ShieldCheck,
  users: Users,
  award: Award,
  "hand-heart": HandHeart,
};

export function CoreValues({ values }: { values: readonly CoreValue[] }) {
  return <IconCardList look="value" items={values.map((value) => ({ ...value, Icon: icons[value.icon] }))} />;
}
