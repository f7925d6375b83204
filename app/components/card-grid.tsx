import type { Key, ReactNode } from "react";

/**
 * A list of cards laid out by `className` (grid or wrapping row): one <li> per item, drawn by the
 * render function given as children. `ordered` makes it an <ol>, for items whose order means something (steps).
 */
export function CardGrid<T>({
  items,
  itemKey,
  ordered = false,
  className,
  itemClassName,
  children: card,
}: {
  items: readonly T[];
  itemKey: (item: T) => Key;
  ordered?: boolean;
  className: string;
  itemClassName?: string;
  children: (item: T) => ReactNode;
}) {
  const List = ordered ? "ol" : "ul";
  return (
    <List className={className}>
      {items.map((item) => (
        <li key={itemKey(item)} className={itemClassName}>
          {card(item)}
        </li>
      ))}
    </List>
  );
}
