import { cn } from "~/utils/cn";
import { type IconComponent } from "~/components/ui/inline-icon";

export type IconCardItem = { title: string; description: string; Icon: IconComponent };

/** The two looks of the four-card rows: the home page's benefits and the about page's core values. */
const looks = {
  benefit: {
    card: "bg-white",
    badge: "flex size-12 items-center justify-center rounded-lg bg-primary text-gold-400",
    title: "mt-5 text-lg font-bold text-primary",
    text: "mt-2 text-muted-foreground",
  },
  value: {
    card: "bg-card",
    badge: "inline-flex size-12 items-center justify-center rounded-full bg-navy-100 text-primary",
    title: "mt-4 text-lg font-semibold text-primary",
    text: "mt-2 text-sm text-muted-foreground",
  },
} as const;

/** A row of up to four cards, each an icon, an h3 and a line of text. */
export function IconCardList({ items, look, className }: { items: readonly IconCardItem[]; look: keyof typeof looks; className?: string }) {
  const styles = looks[look];
  return (
    <ul className={cn(className, "grid gap-6 sm:grid-cols-2 lg:grid-cols-4")}>
      {items.map(({ title, description, Icon }) => (
        <li key={title} className={cn("rounded-xl border border-border", styles.card, "p-6 shadow-sm")}>
          <span className={styles.badge}>
            <Icon aria-hidden="true" className="size-6" />
          </span>
          <h3 className={styles.title}>{title}</h3>
          <p className={styles.text}>{description}</p>
        </li>
      ))}
    </ul>
  );
}
