import * as circleCheckIcon from "lucide-react/icons/circle-check";
import { cn } from "~/utils/cn";
import { inlineIcon } from "~/components/ui/inline-icon";

const CircleCheck = inlineIcon(circleCheckIcon);

/** A list whose items each begin with a green check mark (the how-it-works steps and document lists). */
export function CheckList({
  items,
  className,
  itemClassName,
  iconSize = "size-4",
}: {
  items: readonly string[];
  className?: string;
  itemClassName?: string;
  iconSize?: "size-4" | "size-5";
}) {
  return (
    <ul className={className}>
      {items.map((item) => (
        <li key={item} className={cn("flex gap-2", itemClassName)}>
          <CircleCheck aria-hidden="true" className={cn("mt-0.5", iconSize, "shrink-0 text-green-700")} />
          <span>{item}</span>
        </li>
      ))}
    </ul>
  );
}
